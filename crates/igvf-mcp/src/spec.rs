//! The IGVF Catalog's own OpenAPI description, embedded at build time: which query
//! parameters each endpoint takes and the values its enums accept.
//!
//! The file `openapi/igvf-catalog.openapi.json` is the production spec (v1.2.0) trimmed to
//! what this server reads (paths, operation ids, descriptions, parameters with their enums
//! and defaults). `cargo xtask igvf-openapi --from <path-or-url>` regenerates it with
//! [`trim`]; nothing reads the network at run time.
//!
//! Three things depend on it: `igvf_list_sources` (the valid filter values an agent can
//! discover), the guard against the `gene_name` trap (the upstream silently drops query
//! parameters it does not know, then answers as if unfiltered): the client only sends
//! parameter names this spec lists for the endpoint, which a unit test checks; and which
//! queries the catalog can answer at all ([`EndpointSpec::needs_one_of`], read from each
//! description's "At least one of these fields is required: …" sentence), so a query
//! with no anchor entity is refused only when its endpoint really cannot answer it.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde::Deserialize;
use serde_json::{Map, Value};

/// The trimmed spec, as embedded.
pub const SPEC_JSON: &str = include_str!("../openapi/igvf-catalog.openapi.json");

/// One query parameter of an endpoint.
#[derive(Debug, Clone, Deserialize)]
pub struct ParamSpec {
    /// The parameter name, e.g. `gene_id`.
    pub name: String,
    /// Whether the endpoint requires it.
    #[serde(default)]
    pub required: bool,
    /// Where it goes: `query` or `path`.
    #[serde(rename = "in", default)]
    pub location: Option<String>,
    /// Its schema (type, enum, default).
    #[serde(default)]
    pub schema: ParamSchema,
}

/// The schema of a query parameter.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct ParamSchema {
    /// `string`, `number`, `boolean`.
    #[serde(rename = "type", default)]
    pub kind: Option<String>,
    /// The accepted values, when the parameter is an enum (duplicates removed, spec order).
    #[serde(rename = "enum", default, deserialize_with = "enum_values")]
    pub values: Vec<String>,
    /// The default value, when the spec gives one.
    #[serde(default)]
    pub default: Option<Value>,
}

fn enum_values<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    let raw = Option::<Vec<Value>>::deserialize(d)?.unwrap_or_default();
    let mut out: Vec<String> = Vec::with_capacity(raw.len());
    for v in raw {
        let s = match v {
            Value::String(s) => s,
            other => other.to_string(),
        };
        // The production spec repeats some values (e.g. the BioGRID methods); an agent
        // needs each once.
        if !out.contains(&s) {
            out.push(s);
        }
    }
    Ok(out)
}

/// One GET endpoint of the spec.
#[derive(Debug, Clone, Deserialize)]
pub struct EndpointSpec {
    /// The operation id, e.g. `variantsFromGenes`.
    #[serde(rename = "operationId", default)]
    pub operation_id: String,
    /// The spec's description (HTML example tabs removed by [`trim`]).
    #[serde(default)]
    pub description: String,
    /// Its query parameters.
    #[serde(default)]
    pub parameters: Vec<ParamSpec>,
}

impl EndpointSpec {
    /// The parameter called `name`.
    pub fn param(&self, name: &str) -> Option<&ParamSpec> {
        self.parameters.iter().find(|p| p.name == name)
    }

    /// The parameters of which the endpoint needs at least one before it answers (empty:
    /// it answers with none). Read from the description's own sentence ("At least one of
    /// these fields is required: gene_id, hgnc_id, gene_name, synonym.", "Either
    /// disease_id or disease_name is required.", "One of these fields is required: …"),
    /// kept to the names the endpoint takes, plus what the catalog's handlers require
    /// without saying so (`UNSTATED`).
    pub fn needs_one_of(&self) -> Vec<String> {
        if let Some((_, names)) = UNSTATED.iter().find(|(id, _)| *id == self.operation_id) {
            return names.iter().map(|n| (*n).to_owned()).collect();
        }
        let text = self.description.replace("<br>", ".");
        let mut out: Vec<String> = Vec::new();
        for sentence in text.split(". ").flat_map(|s| s.split(".\n")) {
            let lower = sentence.trim().to_ascii_lowercase();
            if !(lower.contains("required") || lower.contains("must be defined")) {
                continue;
            }
            let list = match lower.split_once(':') {
                Some((_, after)) => after.to_owned(),
                None => lower
                    .trim_start_matches("either ")
                    .split(" is required")
                    .next()
                    .unwrap_or_default()
                    .split(" are required")
                    .next()
                    .unwrap_or_default()
                    .to_owned(),
            };
            for token in list.split([',', ' ']) {
                let name = token.trim().trim_end_matches('.');
                let is_name = !name.is_empty()
                    && name != "or"
                    && name
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
                if is_name && self.param(name).is_some() && !out.iter().any(|o| o == name) {
                    out.push(name.to_owned());
                }
            }
        }
        out
    }

    /// Whether a request carrying the parameters `sent` is one the endpoint answers:
    /// `Err` with the names of which it needs one otherwise.
    pub fn answers(&self, sent: &[&str]) -> Result<(), Vec<String>> {
        let needed = self.needs_one_of();
        if needed.is_empty() || sent.iter().any(|s| needed.iter().any(|n| n == s)) {
            Ok(())
        } else {
            Err(needed)
        }
    }

    /// The first sentence of the description, for listings.
    pub fn summary(&self) -> String {
        let text = self.description.replace("<br>", " ");
        let first = text.split(". ").next().unwrap_or_default().trim();
        first.trim_end_matches('.').to_owned()
    }
}

#[derive(Debug, Deserialize)]
struct Document {
    info: Info,
    #[serde(default)]
    paths: BTreeMap<String, PathItem>,
}

#[derive(Debug, Deserialize)]
struct Info {
    #[serde(default)]
    version: String,
    #[serde(default)]
    description: String,
}

#[derive(Debug, Deserialize)]
struct PathItem {
    get: Option<EndpointSpec>,
}

/// The parsed spec: every GET endpoint by path (`/genes/variants`).
#[derive(Debug, Default)]
pub struct Spec {
    /// `info.version` of the spec, e.g. `1.2.0`.
    pub version: String,
    /// `info.description`, which states the catalog's coordinate convention ("0-based,
    /// half-open coordinates").
    pub description: String,
    /// Endpoints by path, with the leading slash.
    pub endpoints: BTreeMap<String, EndpointSpec>,
}

impl Spec {
    /// Parse a (trimmed or full) spec.
    pub fn parse(json: &str) -> Result<Self, String> {
        let doc: Document = serde_json::from_str(json).map_err(|e| e.to_string())?;
        let endpoints = doc
            .paths
            .into_iter()
            .filter_map(|(path, item)| item.get.map(|op| (path, op)))
            .collect();
        Ok(Self {
            version: doc.info.version,
            description: doc.info.description,
            endpoints,
        })
    }

    /// The endpoint at `path` (with or without the leading slash).
    pub fn endpoint(&self, path: &str) -> Option<&EndpointSpec> {
        let key = format!("/{}", path.trim_start_matches('/'));
        self.endpoints.get(&key).or_else(|| {
            // A concrete path of a templated one (`/ontology-terms/X/children`).
            let parts: Vec<&str> = key.split('/').collect();
            self.endpoints.iter().find_map(|(template, spec)| {
                let pattern: Vec<&str> = template.split('/').collect();
                let matches = pattern.len() == parts.len()
                    && pattern.iter().zip(&parts).all(|(p, c)| {
                        (p.starts_with('{') && p.ends_with('}') && !c.is_empty()) || p == c
                    });
                matches.then_some(spec)
            })
        })
    }

    /// The enum values of `param` at `path` (empty when it is not an enum).
    pub fn values(&self, path: &str, param: &str) -> &[String] {
        self.endpoint(path)
            .and_then(|e| e.param(param))
            .map(|p| p.schema.values.as_slice())
            .unwrap_or_default()
    }

    /// Whether the endpoint at `path` takes a parameter called `param`.
    pub fn has_param(&self, path: &str, param: &str) -> bool {
        self.endpoint(path)
            .is_some_and(|e| e.param(param).is_some())
    }

    /// Whether the endpoint at `path` takes `param` in its query string.
    pub fn has_query_param(&self, path: &str, param: &str) -> bool {
        self.endpoint(path).is_some_and(|e| {
            e.param(param)
                .is_some_and(|p| p.location.as_deref() != Some("path"))
        })
    }
}

/// What the catalog's handlers require that the spec's descriptions do not say, by
/// operation id. `/gene-regulatory-network` answers 400 "At least one of gene must be
/// defined." without a regulator or response gene (`grnQueryValidation` in
/// <https://github.com/IGVF-DACC/igvf-catalog/blob/65a2bd794ee311b13a47dac25e75449726064486/src/routers/datatypeRouters/edges/genomic_elements_genes.ts>),
/// while its description names no required field.
const UNSTATED: &[(&str, &[&str])] = &[(
    "grn",
    &[
        "regulator_gene_id",
        "regulator_hgnc_id",
        "regulator_gene_name",
        "regulator_synonym",
        "response_gene_id",
        "response_hgnc_id",
        "response_gene_name",
        "response_synonym",
    ],
)];

static SPEC: LazyLock<Spec> = LazyLock::new(|| {
    Spec::parse(SPEC_JSON).unwrap_or_else(|e| {
        // Cannot happen with the embedded file (a unit test parses it); an empty spec
        // only makes the client refuse every parameter, never send a wrong one.
        tracing::error!(error = %e, "the embedded IGVF OpenAPI spec does not parse");
        Spec::default()
    })
});

/// The embedded spec, parsed on first use (not at start-up).
pub fn spec() -> &'static Spec {
    &SPEC
}

/// Trim a full OpenAPI document to what this server embeds: `openapi`, `info` (title,
/// version), `servers`, and for every GET path its `operationId`, `description` (without
/// the HTML example tabs) and `parameters` (name, in, required, schema type/enum/default).
pub fn trim(full: &Value) -> Result<Value, String> {
    let root = full.as_object().ok_or("the spec is not a JSON object")?;
    let paths = root
        .get("paths")
        .and_then(Value::as_object)
        .ok_or("the spec has no `paths` object")?;
    if paths.is_empty() {
        return Err("the spec lists no paths".to_owned());
    }
    let mut out_paths = Map::new();
    for (path, item) in paths {
        let Some(get) = item.get("get").and_then(Value::as_object) else {
            continue;
        };
        let mut op = Map::new();
        if let Some(id) = get.get("operationId") {
            op.insert("operationId".into(), id.clone());
        }
        if let Some(desc) = get.get("description").and_then(Value::as_str) {
            let short = desc.split("<div").next().unwrap_or_default().trim_end();
            op.insert("description".into(), Value::String(short.to_owned()));
        }
        let mut params = Vec::new();
        for p in get
            .get("parameters")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let mut param = Map::new();
            for key in ["name", "in", "required"] {
                if let Some(v) = p.get(key) {
                    param.insert(key.into(), v.clone());
                }
            }
            let mut schema = Map::new();
            if let Some(s) = p.get("schema").and_then(Value::as_object) {
                for key in ["type", "enum", "default"] {
                    if let Some(v) = s.get(key) {
                        schema.insert(key.into(), v.clone());
                    }
                }
            }
            param.insert("schema".into(), Value::Object(schema));
            params.push(Value::Object(param));
        }
        op.insert("parameters".into(), Value::Array(params));
        let mut path_item = Map::new();
        path_item.insert("get".into(), Value::Object(op));
        out_paths.insert(path.clone(), Value::Object(path_item));
    }
    let mut info = Map::new();
    if let Some(i) = root.get("info").and_then(Value::as_object) {
        for key in ["title", "version", "description"] {
            if let Some(v) = i.get(key) {
                info.insert(key.into(), v.clone());
            }
        }
    }
    let mut out = Map::new();
    out.insert(
        "openapi".into(),
        root.get("openapi").cloned().unwrap_or(Value::Null),
    );
    out.insert("info".into(), Value::Object(info));
    if let Some(servers) = root.get("servers") {
        out.insert("servers".into(), servers.clone());
    }
    out.insert("paths".into(), Value::Object(out_paths));
    Ok(Value::Object(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_spec_parses_and_is_the_production_version() {
        let spec = Spec::parse(SPEC_JSON).unwrap();
        assert_eq!(spec.version, "1.2.0");
        assert_eq!(spec.endpoints.len(), 85);
        assert!(spec.has_param("genes", "name"));
        // The trap: the node endpoint has no `gene_name`; the edge endpoints do.
        assert!(!spec.has_param("/genes", "gene_name"));
        assert!(spec.has_param("/genes/variants", "gene_name"));
        assert_eq!(
            spec.values("/variants/variant-ld", "ancestry"),
            ["AFR", "EAS", "EUR", "SAS"]
        );
    }

    #[test]
    fn the_spec_states_the_catalog_s_coordinate_convention() {
        // What `region.rs` converts from; a refreshed spec that changed it would fail here.
        assert!(
            spec()
                .description
                .contains("0-based, half-open coordinates for genomic coordinates"),
            "{}",
            spec().description
        );
    }

    #[test]
    fn what_an_endpoint_needs_is_read_from_its_description() {
        let needs = |path: &str| spec().endpoint(path).unwrap().needs_one_of();
        // "At least one of these properties must be defined: spdi, …, method, or
        // files_filesets" (sic: the parameter is `files_fileset`, and is kept only when
        // spelled as the endpoint takes it).
        assert_eq!(
            needs("/variants/genes"),
            [
                "spdi",
                "hgvs",
                "rsid",
                "ca_id",
                "variant_id",
                "region",
                "method"
            ]
        );
        assert_eq!(
            needs("/genes/genomic-elements"),
            [
                "gene_id",
                "hgnc_id",
                "gene_name",
                "synonym",
                "method",
                "files_fileset"
            ]
        );
        assert_eq!(
            needs("/genes/genes"),
            ["gene_id", "hgnc_id", "gene_name", "synonym"]
        );
        // "Either disease_name or disease_id are required."
        assert_eq!(needs("/diseases/genes"), ["disease_name", "disease_id"]);
        assert_eq!(needs("/diseases/variants"), ["disease_id", "disease_name"]);
        assert_eq!(
            needs("/phenotypes/variants"),
            ["phenotype_id", "phenotype_name", "method", "files_fileset"]
        );
        // Not in the description, in the catalog's handler.
        assert!(needs("/gene-regulatory-network").contains(&"regulator_gene_id".to_owned()));
        // No requirement stated: anything is answered.
        assert!(needs("/genes").is_empty());
        let qtls = spec().endpoint("/variants/genes").unwrap();
        assert!(qtls.answers(&["method", "source"]).is_ok());
        assert!(qtls.answers(&["source", "biological_context"]).is_err());
    }

    #[test]
    fn enum_values_are_deduplicated_in_spec_order() {
        let methods = spec().values("/genes/genes", "method");
        let mut seen = std::collections::HashSet::new();
        assert!(methods.iter().all(|m| seen.insert(m)));
        assert_eq!(methods.first().map(String::as_str), Some("COXPRESdb"));
    }

    #[test]
    fn trim_keeps_parameters_and_drops_responses() {
        let full = serde_json::json!({
            "openapi": "3.0.3",
            "info": {"title": "IGVF Catalog", "version": "9.9.9", "description": "long"},
            "servers": [{"url": "https://api.catalogkg.igvf.org/api"}],
            "paths": {"/genes": {"get": {
                "operationId": "genes",
                "description": "Retrieve genes. <div class=\"x\">tabs</div>",
                "parameters": [{"name": "name", "in": "query", "required": false,
                    "schema": {"type": "string", "enum": ["a", "a", "b"], "default": "a"}}],
                "responses": {"200": {"description": "big"}}
            }}},
            "components": {"x": 1}
        });
        let trimmed = trim(&full).unwrap();
        assert!(trimmed.get("components").is_none());
        assert_eq!(trimmed["info"]["description"], "long");
        assert!(trimmed["paths"]["/genes"]["get"].get("responses").is_none());
        assert_eq!(
            trimmed["paths"]["/genes"]["get"]["description"],
            "Retrieve genes."
        );
        let spec = Spec::parse(&trimmed.to_string()).unwrap();
        assert_eq!(spec.values("genes", "name"), ["a", "b"]);
        assert_eq!(spec.version, "9.9.9");
        assert!(trim(&serde_json::json!({"paths": {}})).is_err());
        assert!(trim(&serde_json::json!([1])).is_err());
    }
}
