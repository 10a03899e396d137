//! Paths with record indices folded: `lod[0].section[2].flags` becomes
//! `lod[*].section[*].flags`, so every section's flags are one census entry.

/// Appends `path` to `out` with every `[digits]` replaced by `[*]`.
pub fn fold_into(path: &str, out: &mut String) {
    let mut rest = path;
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find(']') {
            Some(close) if close > 0 && after[..close].bytes().all(|b| b.is_ascii_digit()) => {
                out.push_str("[*]");
                rest = &after[close + 1..];
            }
            _ => {
                out.push('[');
                rest = after;
            }
        }
    }
    out.push_str(rest);
}

pub fn fold(path: &str) -> String {
    let mut s = String::with_capacity(path.len() + 4);
    fold_into(path, &mut s);
    s
}

/// Joins a record kind and a child name; the file itself is the empty kind.
pub fn join(kind: &str, name: &str) -> String {
    if kind.is_empty() {
        name.to_string()
    } else {
        format!("{kind}.{name}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_fold_and_other_brackets_stay() {
        assert_eq!(fold("lod[0].section[12].flags"), "lod[*].section[*].flags");
        assert_eq!(fold("header.lod_ptr[6]"), "header.lod_ptr[*]");
        assert_eq!(fold("MESH[1]"), "MESH[*]");
        assert_eq!(fold("a[x].b[]"), "a[x].b[]", "only digit indices fold");
        assert_eq!(fold("a[3"), "a[3");
        assert_eq!(join("", "header"), "header");
        assert_eq!(join("lod[*]", "flags"), "lod[*].flags");
    }
}
