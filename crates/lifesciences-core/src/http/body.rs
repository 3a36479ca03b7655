//! Reading response bodies under a size cap, without ever holding more than the cap.

use bytes::{Bytes, BytesMut};

use std::time::Duration;

use crate::error::UpstreamFailure;

/// Read the whole body, refusing it as soon as it is known to exceed `limit` bytes: at
/// once when `Content-Length` says so, else when the streamed bytes pass the cap.
pub(crate) async fn read_capped(
    mut response: reqwest::Response,
    limit: u64,
    timeout: Duration,
) -> Result<Bytes, UpstreamFailure> {
    if response.content_length().is_some_and(|len| len > limit) {
        return Err(UpstreamFailure::TooLarge { limit });
    }
    let initial = response
        .content_length()
        .unwrap_or(8 * 1024)
        .min(limit)
        .min(1 << 20);
    let mut buf = BytesMut::with_capacity(usize::try_from(initial).unwrap_or(8 * 1024));
    while let Some(chunk) = response
        .chunk()
        .await
        .map_err(|e| UpstreamFailure::from_reqwest(&e, timeout))?
    {
        if (buf.len() + chunk.len()) as u64 > limit {
            return Err(UpstreamFailure::TooLarge { limit });
        }
        buf.extend_from_slice(&chunk);
    }
    Ok(buf.freeze())
}

/// Read at most `limit` bytes of an error body, as text, for messages and logs. Errors
/// while reading just shorten the excerpt.
pub(crate) async fn read_excerpt(mut response: reqwest::Response, limit: usize) -> String {
    let mut buf = Vec::new();
    while buf.len() < limit {
        match response.chunk().await {
            Ok(Some(chunk)) => buf.extend_from_slice(&chunk),
            Ok(None) | Err(_) => break,
        }
    }
    buf.truncate(limit);
    String::from_utf8_lossy(&buf).into_owned()
}
