//! No `null` on the wire, except the two pagination fields allowed to be null.

use serde_json::Value;

/// The paths of every `null` in `value`, except `pagination.cursor` and
/// `pagination.total_count`, the two fields allowed to be null.
pub fn find_nulls(value: &Value) -> Vec<String> {
    fn walk(value: &Value, path: &str, parent_key: Option<&str>, out: &mut Vec<String>) {
        match value {
            Value::Null => out.push(path.to_owned()),
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    walk(item, &format!("{path}[{i}]"), None, out);
                }
            }
            Value::Object(map) => {
                for (key, item) in map {
                    let allowed = parent_key == Some("pagination")
                        && matches!(key.as_str(), "cursor" | "total_count")
                        && item.is_null();
                    if !allowed {
                        walk(item, &format!("{path}.{key}"), Some(key), out);
                    }
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(value, "$", None, &mut out);
    out
}

/// Fail when `value` holds a `null` outside the two pagination fields.
pub fn assert_no_nulls(value: &Value) {
    let nulls = find_nulls(value);
    assert!(
        nulls.is_empty(),
        "null on the wire at {nulls:?} in {}",
        serde_json::to_string_pretty(value).unwrap_or_default()
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn nulls_are_found_except_in_the_two_pagination_fields() {
        let ok = json!({"items": [{"a": 1}], "pagination": {"cursor": null, "total_count": null, "page_size": 5}});
        assert!(find_nulls(&ok).is_empty());
        let bad = json!({"items": [{"a": null}], "pagination": {"cursor": null, "page_size": null},
                         "cursor": null});
        assert_eq!(
            find_nulls(&bad),
            vec!["$.cursor", "$.items[0].a", "$.pagination.page_size"]
        );
        // `cursor` is only allowed null inside `pagination`.
        assert_eq!(
            find_nulls(&json!({"x": {"cursor": null}})),
            vec!["$.x.cursor"]
        );
    }
}
