//! Unit tests of the configuration (the module's private items are in reach).

use super::*;

static DEMO: Upstream = Upstream {
    about: "Demo REST API",
    settings: &[Setting {
        var: "DEMO_CALLER_IDENTITY",
        default: "lifesciences-mcp",
        about: "who we are",
        query_param: None,
    }],
    ..Upstream::new("Demo", "DEMO", "https://demo.example.org/api")
};

#[test]
fn every_variable_of_a_server_is_listed_with_its_default() {
    let names: Vec<(String, String)> = variables(&[&DEMO])
        .into_iter()
        .map(|v| (v.name, v.default))
        .collect();
    let expected = [
        ("DEMO_API_URL", "https://demo.example.org/api"),
        ("DEMO_RATE_LIMIT", "10"),
        ("DEMO_MAX_CONCURRENT", "10"),
        ("DEMO_TIMEOUT_SECS", "as LIFESCIENCES_TIMEOUT_SECS"),
        ("DEMO_CALLER_IDENTITY", "lifesciences-mcp"),
        ("LIFESCIENCES_TIMEOUT_SECS", "30"),
        ("LIFESCIENCES_CACHE_TTL_SECS", "3600"),
    ];
    for (name, default) in expected {
        assert!(
            names.contains(&(name.to_owned(), default.to_owned())),
            "{name}={default} missing from {names:?}"
        );
    }
    assert!(names.iter().all(|(n, _)| !n.starts_with('<')));
}

#[test]
fn a_misspelt_variable_is_found_with_the_name_it_meant() {
    let known = variables(&[&DEMO]);
    let set = [
        "DEMO_RATELIMIT",
        "DEMO_RATE_LIMIT",
        "DEMO_SOMETHING_ELSE_ENTIRELY",
        "LIFESCIENCES_CACHE_TTL",
        "PATH",
        "ENSEMBL_RATELIMIT",
    ];
    assert_eq!(
        unknown_variables(&known, &[&DEMO], set),
        [
            (
                "DEMO_RATELIMIT".to_owned(),
                Some("DEMO_RATE_LIMIT".to_owned())
            ),
            ("DEMO_SOMETHING_ELSE_ENTIRELY".to_owned(), None),
            (
                "LIFESCIENCES_CACHE_TTL".to_owned(),
                Some("LIFESCIENCES_CACHE_TTL_SECS".to_owned())
            ),
        ]
    );
}

/// An environment made of `pairs`, as `from_env_with` reads it.
fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> + use<> {
    let env = crate::Env::from_pairs(pairs);
    move |var| env.var(var)
}

static ENSEMBL: Upstream = Upstream {
    rate_per_second: 15.0,
    max_concurrent: 15,
    ..Upstream::new("Ensembl", "ENSEMBL", "https://rest.ensembl.org")
};

static UNICHEM: Upstream = Upstream {
    timeout: Some(Duration::from_secs(5)),
    ..Upstream::new("UniChem", "UNICHEM", "https://www.ebi.ac.uk/unichem/api/v1")
};

static CALLER: Upstream = Upstream {
    settings: &[Setting {
        var: "STRING_CALLER_IDENTITY",
        default: "lifesciences-mcp",
        about: "who is calling",
        query_param: Some("caller_identity"),
    }],
    ..Upstream::new("STRING", "STRING", "https://string-db.org/api")
};

fn ensembl() -> SourceConfig {
    SourceConfig::new(&ENSEMBL).unwrap()
}

#[test]
fn defaults_come_from_the_description() {
    let c = ensembl().from_env_with(env(&[])).unwrap();
    assert_eq!(c.base_url.as_str(), "https://rest.ensembl.org/");
    assert_eq!(c.rate_per_second, 15.0);
    assert_eq!(c.max_concurrent, 15);
    assert_eq!(c.timeout, Duration::from_secs(30));
    assert_eq!(c.cache_ttl, Duration::from_secs(3600));
    assert_eq!(c.max_body_bytes, 32 * 1024 * 1024);
    assert_eq!(c.retry.max_retries, 3);
    assert_eq!(c.retry.base_delay, Duration::from_millis(500));
    assert_eq!(c.name(), "Ensembl");
}

#[test]
fn environment_overrides_with_or_without_trailing_slash() {
    for url in ["http://127.0.0.1:9999/mock/", "http://127.0.0.1:9999/mock"] {
        let c = ensembl()
            .from_env_with(env(&[
                ("ENSEMBL_API_URL", url),
                ("ENSEMBL_RATE_LIMIT", "2.5"),
                ("LIFESCIENCES_TIMEOUT_SECS", "5"),
                ("LIFESCIENCES_CACHE_TTL_SECS", "0"),
            ]))
            .unwrap();
        assert_eq!(c.base_url.as_str(), "http://127.0.0.1:9999/mock");
        assert_eq!(c.rate_per_second, 2.5);
        assert_eq!(c.timeout, Duration::from_secs(5));
        assert_eq!(c.cache_ttl, Duration::ZERO);
    }
}

#[test]
fn bad_values_name_the_variable_and_the_expected_form() {
    let cases = [
        ("ENSEMBL_API_URL", "rest.ensembl.org"),
        ("ENSEMBL_API_URL", "ftp://x"),
        ("ENSEMBL_RATE_LIMIT", "fast"),
        ("ENSEMBL_RATE_LIMIT", "0"),
        ("ENSEMBL_RATE_LIMIT", "1e-300"),
        ("LIFESCIENCES_TIMEOUT_SECS", "-1"),
        ("LIFESCIENCES_TIMEOUT_SECS", "1e-12"),
        ("ENSEMBL_TIMEOUT_SECS", "0"),
        ("ENSEMBL_MAX_CONCURRENT", "0"),
        ("LIFESCIENCES_CACHE_TTL_SECS", "NaN"),
        ("ENSEMBL_API_URL", "https://example.org/api?key=abc"),
        ("ENSEMBL_API_URL", "https://example.org/api#top"),
    ];
    for (var, value) in cases {
        let err = ensembl().from_env_with(env(&[(var, value)])).unwrap_err();
        let text = err.to_string();
        assert!(text.starts_with(var), "{text}");
        assert!(text.contains("expected"), "{text}");
    }
}

#[test]
fn a_source_with_its_own_timeout_is_never_lengthened_by_the_global_one() {
    let unichem = || SourceConfig::new(&UNICHEM).unwrap();
    let global = env(&[("LIFESCIENCES_TIMEOUT_SECS", "60")]);
    assert_eq!(
        unichem().from_env_with(&global).unwrap().timeout,
        Duration::from_secs(5)
    );
    assert_eq!(
        ensembl().from_env_with(&global).unwrap().timeout,
        Duration::from_secs(60)
    );
    let shorter = env(&[("LIFESCIENCES_TIMEOUT_SECS", "2")]);
    assert_eq!(
        unichem().from_env_with(shorter).unwrap().timeout,
        Duration::from_secs(2)
    );
    let own = env(&[
        ("LIFESCIENCES_TIMEOUT_SECS", "60"),
        ("UNICHEM_TIMEOUT_SECS", "12"),
    ]);
    assert_eq!(
        unichem().from_env_with(own).unwrap().timeout,
        Duration::from_secs(12)
    );
    let c = ensembl()
        .from_env_with(env(&[("ENSEMBL_MAX_CONCURRENT", "4")]))
        .unwrap();
    assert_eq!(c.max_concurrent, 4);
}

#[test]
fn settings_have_defaults_are_trimmed_and_may_ride_on_every_request() {
    let default = SourceConfig::new(&CALLER)
        .unwrap()
        .from_env_with(env(&[]))
        .unwrap();
    assert_eq!(
        default.setting("STRING_CALLER_IDENTITY"),
        Some("lifesciences-mcp")
    );
    assert_eq!(
        default.default_query,
        [("caller_identity".to_owned(), "lifesciences-mcp".to_owned())]
    );
    let mine = SourceConfig::new(&CALLER)
        .unwrap()
        .from_env_with(env(&[("STRING_CALLER_IDENTITY", " my-lab ")]))
        .unwrap();
    assert_eq!(mine.setting("STRING_CALLER_IDENTITY"), Some("my-lab"));
    let blank = SourceConfig::new(&CALLER)
        .unwrap()
        .from_env_with(env(&[("STRING_CALLER_IDENTITY", "  ")]))
        .unwrap();
    assert_eq!(
        blank.setting("STRING_CALLER_IDENTITY"),
        Some("lifesciences-mcp")
    );
    assert_eq!(blank.setting("STRING_OTHER"), None);
}

#[test]
fn programmatic_extremes_are_clamped_not_fatal() {
    let c = ensembl().with_rate(1e-300).with_timeout(Duration::ZERO);
    assert_eq!(c.rate_per_second, 0.01);
    assert_eq!(c.timeout, Duration::from_millis(100));
    let _client = crate::HttpClient::new(c);
}

#[test]
fn a_value_that_is_only_a_dollar_brace_reference_is_a_placeholder() {
    for value in [
        "${user_config.string_rate_limit}",
        " ${user_config.ca_file}\n",
        "${HOME}",
        "${env:HTTPS_PROXY}",
        "${input:rate}",
        "${}",
    ] {
        assert!(is_placeholder(value), "{value:?}");
    }
    for value in [
        "",
        "5",
        "https://rest.ensembl.org",
        "$HOME",
        "{user_config.x}",
        "${user_config.x",
        "prefix ${user_config.x}",
        "${a}${b}",
        "https://${user_config.host}/api",
        "info,${x}",
    ] {
        assert!(!is_placeholder(value), "{value:?}");
    }
    assert_eq!(usable(Some("${user_config.x}".into())), None);
    assert_eq!(usable(Some(" ".into())), None);
    assert_eq!(usable(Some("5".into())), Some("5".into()));
}

#[test]
fn every_variable_left_as_a_placeholder_keeps_its_default() {
    let placeholder = |var: &str| format!("${{user_config.{}}}", var.to_ascii_lowercase());
    let vars = [
        "ENSEMBL_API_URL",
        "ENSEMBL_RATE_LIMIT",
        "ENSEMBL_MAX_CONCURRENT",
        "ENSEMBL_TIMEOUT_SECS",
        ENV_TIMEOUT_SECS,
        ENV_CACHE_TTL_SECS,
    ];
    let values: Vec<String> = vars.iter().map(|v| placeholder(v)).collect();
    let pairs: Vec<(&str, &str)> = vars
        .iter()
        .copied()
        .zip(values.iter().map(String::as_str))
        .collect();
    let c = ensembl().from_env_with(env(&pairs)).unwrap();
    let d = ensembl().from_env_with(env(&[])).unwrap();
    assert_eq!(
        (
            c.base_url,
            c.rate_per_second,
            c.max_concurrent,
            c.timeout,
            c.cache_ttl
        ),
        (
            d.base_url,
            d.rate_per_second,
            d.max_concurrent,
            d.timeout,
            d.cache_ttl
        )
    );
    let setting = SourceConfig::new(&CALLER)
        .unwrap()
        .from_env_with(env(&[(
            "STRING_CALLER_IDENTITY",
            "${user_config.string_caller_identity}",
        )]))
        .unwrap();
    assert_eq!(
        setting.setting("STRING_CALLER_IDENTITY"),
        Some("lifesciences-mcp")
    );
    assert_eq!(
        setting.default_query,
        [("caller_identity".to_owned(), "lifesciences-mcp".to_owned())]
    );
}

#[test]
fn a_proxy_password_is_masked_in_what_is_shown() {
    assert_eq!(
        without_credentials("http://me:s3cret@proxy example:3128/x"),
        "http://***@proxy example:3128/x"
    );
    assert_eq!(without_credentials("me:p@ss@proxy:3128"), "***@proxy:3128");
    assert_eq!(
        without_credentials("http://proxy:3128"),
        "http://proxy:3128"
    );
    let proxy = ProxyVar {
        var: "HTTPS_PROXY",
        url: Url::parse("http://me:s3cret@proxy.example.org:3128").unwrap(),
    };
    assert_eq!(proxy.shown(), "http://proxy.example.org:3128/");
}

#[test]
fn blank_variables_are_ignored() {
    let c = ensembl()
        .from_env_with(env(&[("ENSEMBL_API_URL", "  ")]))
        .unwrap();
    assert_eq!(c.base_url.host_str(), Some("rest.ensembl.org"));
}

#[test]
fn the_user_agent_names_the_project_and_the_operators_contact() {
    let plain = SourceConfig::new(&DEMO).unwrap();
    assert_eq!(
        plain.user_agent,
        format!(
            "lifesciences-mcp/{} (+{})",
            env!("CARGO_PKG_VERSION"),
            env!("CARGO_PKG_REPOSITORY")
        )
    );
    let with = |contact: &'static str| {
        SourceConfig::new(&DEMO)
            .unwrap()
            .from_env_with(move |var| (var == ENV_CONTACT).then(|| contact.to_owned()))
            .unwrap()
            .user_agent
    };
    assert!(with(" lab@example.org ").ends_with("; lab@example.org)"));
    // Nothing that could break the header gets in.
    assert!(with("a@b.org\r\nX-Evil: 1").ends_with("; a@b.orgX-Evil: 1)"));
    assert_eq!(with("  "), plain.user_agent);
}
