//! The text form shared by search switches and parameters: a comma-separated list of
//! `name=value` changes (`material_scaling=off,rfp_margin=90`), as matches, bench and SPSA take them.

/// The `(name, value)` pairs of `changes` (blank entries skipped, both sides trimmed); an entry
/// without `=` is an error that shows `expected` (e.g. `name=value`).
pub fn split_changes<'a>(
    changes: &'a str,
    expected: &str,
) -> Result<Vec<(&'a str, &'a str)>, String> {
    changes
        .split(',')
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(|change| {
            change
                .split_once('=')
                .map(|(name, value)| (name.trim(), value.trim()))
                .ok_or_else(|| format!("`{change}`: expected {expected}"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::split_changes;

    #[test]
    fn entries_are_split_trimmed_and_checked() {
        assert_eq!(
            split_changes(" a=on, b = 3 ,,", "name=value"),
            Ok(vec![("a", "on"), ("b", "3")])
        );
        assert_eq!(split_changes("", "x"), Ok(vec![]));
        assert_eq!(
            split_changes("a=1,b", "name=value"),
            Err("`b`: expected name=value".to_string())
        );
    }
}
