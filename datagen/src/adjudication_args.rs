//! `datagen match`'s adjudication options (cutechess's `-resign` / `-draw`, as OpenBench sets
//! them): parsing `--resign CP:PLIES`, `--draw CP:PLIES:FROM_PLY` and `--max-plies N` into the
//! engine's `Adjudication`, and the label a match result carries when they differ from the
//! defaults (results played under other adjudication must not be merged).

use anyhow::{bail, Context, Result};
use sente::selfplay::Adjudication;

/// Splits `text` into exactly `N` numbers separated by `:`.
fn numbers<const N: usize>(text: &str, what: &str) -> Result<[i64; N]> {
    let parts: Vec<i64> = text
        .split(':')
        .map(|p| p.trim().parse::<i64>())
        .collect::<Result<_, _>>()
        .with_context(|| format!("{what} `{text}`: not numbers"))?;
    parts
        .try_into()
        .map_err(|_| anyhow::anyhow!("{what} `{text}`: wants {N} numbers separated by `:`"))
}

/// `--resign CP:PLIES` (decisive once PLIES plies in a row show one side ahead by CP or more,
/// in both players' reports) or `off`.
pub fn parse_resign(text: &str) -> Result<Option<(i32, u32)>> {
    if text == "off" {
        return Ok(None);
    }
    let [cp, plies] = numbers::<2>(text, "--resign")?;
    if !(1..=100_000).contains(&cp) || !(1..=1000).contains(&plies) {
        bail!("--resign `{text}`: CP must be 1..=100000 and PLIES 1..=1000");
    }
    Ok(Some((cp as i32, plies as u32)))
}

/// `--draw CP:PLIES:FROM_PLY` (drawn once PLIES plies in a row are within CP of 0, from game
/// ply FROM_PLY on) or `off`. Returns the rule and the first ply.
pub fn parse_draw(text: &str) -> Result<(Option<(i32, u32)>, u32)> {
    if text == "off" {
        return Ok((None, 0));
    }
    let [cp, plies, from] = numbers::<3>(text, "--draw")?;
    if !(0..=100_000).contains(&cp) || !(1..=1000).contains(&plies) || !(0..=10_000).contains(&from)
    {
        bail!("--draw `{text}`: CP must be 0..=100000, PLIES 1..=1000 and FROM_PLY 0..=10000");
    }
    Ok((Some((cp as i32, plies as u32)), from as u32))
}

/// The adjudication of `--resign`, `--draw` and `--max-plies`.
pub fn adjudication(resign: &str, draw: &str, max_plies: u32) -> Result<Adjudication> {
    if max_plies == 0 {
        bail!("--max-plies must be at least 1");
    }
    let (draw, draw_after_ply) = parse_draw(draw)?;
    Ok(Adjudication {
        max_plies,
        resign: parse_resign(resign)?,
        draw,
        draw_after_ply,
    })
}

/// ` adjudication=...` for a match result's limits when `adjudication` is not the default (so
/// results of the default keep their old label and still merge), else empty.
pub fn label(adjudication: &Adjudication) -> String {
    if *adjudication == Adjudication::default() {
        return String::new();
    }
    let resign = adjudication
        .resign
        .map_or("off".to_string(), |(cp, plies)| format!("{cp}:{plies}"));
    let draw = adjudication.draw.map_or("off".to_string(), |(cp, plies)| {
        format!("{cp}:{plies}:{}", adjudication.draw_after_ply)
    });
    format!(
        " adjudication=resign:{resign},draw:{draw},max_plies:{}",
        adjudication.max_plies
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_parse_to_the_engines_defaults_and_have_no_label() {
        let default = Adjudication::default();
        let (cp, plies) = default.resign.unwrap();
        let (draw_cp, draw_plies) = default.draw.unwrap();
        let parsed = adjudication(
            &format!("{cp}:{plies}"),
            &format!("{draw_cp}:{draw_plies}:{}", default.draw_after_ply),
            default.max_plies,
        )
        .unwrap();
        assert_eq!(parsed, default);
        assert_eq!(label(&parsed), "");
    }

    #[test]
    fn other_settings_parse_and_are_labelled() {
        let a = adjudication("400:6", "off", 300).unwrap();
        assert_eq!(a.resign, Some((400, 6)));
        assert_eq!(a.draw, None);
        assert_eq!(a.max_plies, 300);
        assert_eq!(
            label(&a),
            " adjudication=resign:400:6,draw:off,max_plies:300"
        );
        let b = adjudication("off", "10:16:80", 400).unwrap();
        assert_eq!(
            (b.resign, b.draw, b.draw_after_ply),
            (None, Some((10, 16)), 80)
        );
    }

    #[test]
    fn malformed_settings_are_refused_with_the_option_named() {
        for (resign, draw, max) in [
            ("400", "off", 400),
            ("400:6:1", "off", 400),
            ("x:6", "off", 400),
            ("0:6", "off", 400),
            ("400:0", "off", 400),
            ("off", "10:16", 400),
            ("off", "-1:16:80", 400),
            ("off", "off", 0),
        ] {
            let err = adjudication(resign, draw, max).unwrap_err().to_string();
            assert!(err.contains("--"), "{resign} {draw} {max}: {err}");
        }
    }
}
