//! AdamW: Adam with decoupled weight decay, over the flat parameter vector.

/// Optimiser state: first and second moment estimates and the step count.
#[derive(Clone, Debug, PartialEq)]
pub struct AdamW {
    pub beta1: f32,
    pub beta2: f32,
    pub epsilon: f32,
    pub weight_decay: f32,
    pub m: Vec<f32>,
    pub v: Vec<f32>,
    pub step: u64,
}

impl AdamW {
    pub fn new(params: usize, weight_decay: f32) -> Self {
        Self {
            beta1: 0.9,
            beta2: 0.999,
            epsilon: 1e-8,
            weight_decay,
            m: vec![0.0; params],
            v: vec![0.0; params],
            step: 0,
        }
    }

    /// One update with learning rate `lr` from the mean gradient `grad`.
    pub fn update(&mut self, params: &mut [f32], grad: &[f32], lr: f32) {
        self.step += 1;
        let (b1, b2) = (self.beta1, self.beta2);
        let bias1 = 1.0 - b1.powi(self.step.min(i32::MAX as u64) as i32);
        let bias2 = 1.0 - b2.powi(self.step.min(i32::MAX as u64) as i32);
        let step_size = lr / bias1;
        let decay = 1.0 - lr * self.weight_decay;
        for i in 0..params.len() {
            let g = grad[i];
            let m = b1 * self.m[i] + (1.0 - b1) * g;
            let v = b2 * self.v[i] + (1.0 - b2) * g * g;
            self.m[i] = m;
            self.v[i] = v;
            params[i] = params[i] * decay - step_size * m / ((v / bias2).sqrt() + self.epsilon);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimises_a_quadratic() {
        let mut x = vec![3.0f32, -2.0];
        let mut opt = AdamW::new(2, 0.0);
        for _ in 0..2000 {
            let grad: Vec<f32> = x.iter().map(|v| 2.0 * (v - 1.0)).collect();
            opt.update(&mut x, &grad, 0.01);
        }
        assert!(
            (x[0] - 1.0).abs() < 1e-2 && (x[1] - 1.0).abs() < 1e-2,
            "{x:?}"
        );
    }
}
