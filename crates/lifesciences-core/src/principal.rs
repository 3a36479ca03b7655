//! Who a call is for: the principal an authenticated HTTP request was made by (a token's
//! subject, or a named static token), with its weight in the fair share of every
//! upstream's budget. Over stdio, and over HTTP without authentication, every call is the
//! one [`Principal::anonymous`].
//!
//! `Served` runs each tool call inside [`scope`] with the request's principal, so code
//! deep below a tool (the HTTP client's fair queue) reads it with [`current`] without
//! being handed it.
//!
//! **Invariant:** a principal carries a name and, at most, a short prefix of its token's
//! SHA-256 (for logs): never a token.

use std::future::Future;
use std::sync::Arc;

/// One caller, as authentication established it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Principal {
    /// Its name: a token's `sub`, or a static token's name. `anonymous` when nothing was
    /// authenticated.
    pub name: Arc<str>,
    /// Its weight in a fair share (at least 1): a principal of weight 2 gets twice the
    /// share of one of weight 1 when both are busy.
    pub weight: u32,
    /// The first hex digits of the SHA-256 of the token it presented, for logs; empty
    /// when none.
    pub token_hash_prefix: Arc<str>,
}

impl Principal {
    /// The caller when nothing is authenticated (stdio, or HTTP without a token check).
    pub fn anonymous() -> Self {
        Self {
            name: Arc::from("anonymous"),
            weight: 1,
            token_hash_prefix: Arc::from(""),
        }
    }

    /// A named principal of `weight` (at least 1).
    pub fn named(
        name: impl Into<Arc<str>>,
        weight: u32,
        token_hash_prefix: impl Into<Arc<str>>,
    ) -> Self {
        Self {
            name: name.into(),
            weight: weight.max(1),
            token_hash_prefix: token_hash_prefix.into(),
        }
    }
}

tokio::task_local! {
    static CURRENT: Principal;
}

/// Run `call` on behalf of `principal`.
pub async fn scope<F: Future>(principal: Principal, call: F) -> F::Output {
    CURRENT.scope(principal, call).await
}

/// The principal the current call is for ([`Principal::anonymous`] outside any).
pub fn current() -> Principal {
    CURRENT
        .try_with(Clone::clone)
        .unwrap_or_else(|_| Principal::anonymous())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_call_knows_whom_it_is_for_and_nothing_else_does() {
        assert_eq!(current(), Principal::anonymous());
        let ada = Principal::named("ada", 0, "9f86d081");
        assert_eq!(ada.weight, 1, "a weight is at least 1");
        let seen = scope(ada.clone(), async { current() }).await;
        assert_eq!(seen, ada);
        assert_eq!(current(), Principal::anonymous());
    }
}
