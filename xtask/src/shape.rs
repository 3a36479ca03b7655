//! Checks of the code's shape that no compiler makes, run with xtask's tests (and so by
//! `cargo test --workspace`): hand-written files and functions stay small enough to read
//! whole, and tools never read an upstream's statuses or texts (their source's client
//! says what an answer means).

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    /// Lines a hand-written source file may have.
    const MAX_FILE_LINES: usize = 1000;
    /// Lines a function may have, from its `fn` line to its closing brace.
    const MAX_FN_LINES: usize = 150;

    /// Every `.rs` file of the workspace's crates and of xtask.
    fn sources() -> Vec<PathBuf> {
        fn walk(dir: &Path, found: &mut Vec<PathBuf>) {
            let Ok(entries) = std::fs::read_dir(dir) else {
                return;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                if path.is_dir() {
                    walk(&path, found);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    found.push(path);
                }
            }
        }
        let root = crate::workspace_root();
        let mut found = Vec::new();
        walk(&root.join("crates"), &mut found);
        walk(&root.join("xtask").join("src"), &mut found);
        found.sort();
        found
    }

    /// The functions of `text` longer than `max` lines, as `(name, first line, lines)`.
    /// rustfmt puts a function's closing brace alone at the indentation of its `fn`.
    fn long_functions(text: &str, max: usize) -> Vec<(String, usize, usize)> {
        let lines: Vec<&str> = text.lines().collect();
        let mut long = Vec::new();
        for (i, line) in lines.iter().enumerate() {
            let trimmed = line.trim_start();
            let indent = &line[..line.len() - trimmed.len()];
            let signature = ["pub(crate) ", "pub(super) ", "pub ", "const ", "async "]
                .iter()
                .fold(trimmed, |rest, word| {
                    rest.strip_prefix(word).unwrap_or(rest)
                });
            let Some(rest) = signature.strip_prefix("fn ") else {
                continue;
            };
            if trimmed.ends_with(';') {
                continue;
            }
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let end = lines[i..]
                .iter()
                .position(|l| l.strip_prefix(indent) == Some("}"));
            if let Some(end) = end
                && end + 1 > max
            {
                long.push((name, i + 1, end + 1));
            }
        }
        long
    }

    #[test]
    fn files_and_functions_stay_small_enough_to_read_whole() {
        let mut found = Vec::new();
        for path in sources() {
            let text = std::fs::read_to_string(&path).unwrap();
            let shown = path
                .strip_prefix(crate::workspace_root())
                .unwrap()
                .display();
            let lines = text.lines().count();
            if lines > MAX_FILE_LINES {
                found.push(format!("{shown}: {lines} lines (at most {MAX_FILE_LINES})"));
            }
            for (name, at, lines) in long_functions(&text, MAX_FN_LINES) {
                found.push(format!(
                    "{shown}:{at}: fn {name} has {lines} lines (at most {MAX_FN_LINES})"
                ));
            }
        }
        assert!(
            found.is_empty(),
            "split these by meaning:\n{}",
            found.join("\n")
        );
    }

    #[test]
    fn a_long_function_is_found_and_a_short_one_is_not() {
        let body = "    let x = 1;\n".repeat(5);
        let text = format!(
            "fn short() {{\n}}\n\nimpl A {{\n    pub(crate) async fn long() {{\n{body}    }}\n}}\n"
        );
        assert_eq!(long_functions(&text, 6), [("long".to_owned(), 5, 7)]);
        assert!(long_functions(&text, 7).is_empty());
    }

    /// What a tool must not read: its source's client says what an answer means.
    #[test]
    fn tools_read_no_upstream_status_or_text() {
        let mut found = Vec::new();
        for path in sources() {
            let in_tools = path.components().any(|c| c.as_os_str() == "tools")
                && path.components().any(|c| c.as_os_str() == "src");
            if !in_tools {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            for (i, line) in text.lines().enumerate() {
                if line.contains("upstream_status(") || line.contains("upstream_body(") {
                    found.push(format!("{}:{}: {}", path.display(), i + 1, line.trim()));
                }
            }
        }
        assert!(
            found.is_empty(),
            "tools read an upstream's status or body; let the source's client say what it \
             means (lifesciences_core::Reply):\n{}",
            found.join("\n")
        );
    }
}
