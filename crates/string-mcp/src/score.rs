//! `required_score` as the tools accept it: STRING's integer scale 0–1000, or a fraction
//! strictly between 0 and 1 on the 0–1 scale the results use (0.7 means 700). Agents read
//! `combined_score: 0.7` in a result and send 0.7 back; refusing that helps no one.

use std::borrow::Cow;

use lifesciences_core::ApiError;
use lifesciences_core::schemars::{self, JsonSchema};
use serde::{Deserialize, Deserializer};

/// The top of STRING's score scale.
pub(crate) const MAX_SCORE: u32 = 1000;

/// A `required_score` argument as sent: a number or a string, kept as text so that
/// [`required_score`] (not serde) words the error and echoes what the caller sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RequiredScoreArg(pub String);

impl<'de> Deserialize<'de> for RequiredScoreArg {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match serde_json::Value::deserialize(deserializer)? {
            serde_json::Value::Number(n) => Ok(Self(n.to_string())),
            serde_json::Value::String(s) => Ok(Self(s)),
            other => Err(serde::de::Error::invalid_type(
                serde::de::Unexpected::Other(&other.to_string()),
                &"a number from 0 to 1000 such as 700 (or a fraction such as 0.7)",
            )),
        }
    }
}

impl JsonSchema for RequiredScoreArg {
    fn schema_name() -> Cow<'static, str> {
        "RequiredScore".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "number",
            "minimum": 0,
            "maximum": MAX_SCORE,
            "examples": [700, 0.7]
        })
    }
}

/// The score on STRING's 0–1000 scale: a whole number 0–1000 as it is (1 stays 1), a
/// fraction in (0, 1) times 1000 (0.7 → 700, 0.15 → 150), absent or blank as `None`.
/// Anything else is `INVALID_INPUT` echoing what was sent.
pub(crate) fn required_score(arg: Option<&RequiredScoreArg>) -> Result<Option<u32>, ApiError> {
    let Some(RequiredScoreArg(raw)) = arg else {
        return Ok(None);
    };
    let text = raw.trim();
    if text.is_empty() {
        return Ok(None);
    }
    let in_range = |f: f64| (0.0..=f64::from(MAX_SCORE)).contains(&f);
    match text.parse::<f64>() {
        // Both casts are exact: a whole number 0–1000, a rounded product 0–1000.
        Ok(f) if f.fract() == 0.0 && in_range(f) => Ok(Some(f as u32)),
        Ok(f) if f > 0.0 && f < 1.0 => Ok(Some((f * 1000.0).round() as u32)),
        _ => Err(ApiError::invalid_input(
            format!(
                "Argument 'required_score' must be between 0 and {MAX_SCORE} on STRING's \
                 scale, or a fraction between 0 and 1; got {raw}."
            ),
            format!(
                "Send an integer from 0 to {MAX_SCORE} (150 low, 400 medium, 700 high, 900 \
                 highest confidence): use 700 for 0.7. Omit 'required_score' for STRING's \
                 default, 400."
            ),
            raw.clone(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lifesciences_core::ErrorCode;

    fn score(raw: &str) -> Result<Option<u32>, ApiError> {
        required_score(Some(&RequiredScoreArg(raw.to_owned())))
    }

    #[test]
    fn integers_keep_their_meaning() {
        for (raw, want) in [
            ("0", 0),
            ("1", 1),
            ("1.0", 1),
            ("150", 150),
            ("700", 700),
            (" 900 ", 900),
            ("1000", 1000),
            ("0.0", 0),
        ] {
            assert_eq!(score(raw).unwrap(), Some(want), "{raw}");
        }
        assert_eq!(required_score(None).unwrap(), None);
        assert_eq!(score(" ").unwrap(), None);
    }

    #[test]
    fn fractions_below_1_are_read_on_the_results_scale() {
        for (raw, want) in [
            ("0.7", 700),
            ("0.15", 150),
            ("0.4", 400),
            ("0.999", 999),
            ("0.9995", 1000),
            ("0.0001", 0),
            (".9", 900),
        ] {
            assert_eq!(score(raw).unwrap(), Some(want), "{raw}");
        }
    }

    #[test]
    fn out_of_range_values_say_how_to_write_a_fraction() {
        for raw in [
            "1001", "2000", "-1", "-0.7", "1.5", "700.5", "NaN", "inf", "high",
        ] {
            let e = score(raw).unwrap_err().to_envelope().error;
            assert_eq!(e.code, ErrorCode::InvalidInput, "{raw}");
            assert!(e.message.contains("between 0 and 1000"), "{}", e.message);
            assert!(
                e.recovery_hint.contains("use 700 for 0.7"),
                "{}",
                e.recovery_hint
            );
            assert_eq!(e.invalid_input.as_deref(), Some(raw));
        }
    }

    #[test]
    fn arguments_arrive_as_numbers_or_strings() {
        let parse = |json: &str| serde_json::from_str::<RequiredScoreArg>(json);
        assert_eq!(parse("0.7").unwrap().0, "0.7");
        assert_eq!(parse("700").unwrap().0, "700");
        assert_eq!(parse("\"0.7\"").unwrap().0, "0.7");
        assert!(parse("true").is_err());
        assert!(parse("[700]").is_err());
    }
}
