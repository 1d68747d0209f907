//! What the gRPC port answers besides gRPC: the Connect protocol's unary calls
//! ([`super::connect`]), gRPC-Web (tonic-web's layer, below this one), the page (`GET /`,
//! [`super::page`]) and CORS for the origins `--cors-origin` names.
//!
//! The tower stack of the server, outermost first: CORS (only with `--cors-origin`) → this
//! layer (page and Connect; everything else passes) → gRPC-Web → the over-size status fix →
//! the gRPC services. So a gRPC-Web call and a Connect call end in the same gRPC handler,
//! after the same bearer-token check, as a gRPC call.
//!
//! On a method path (`/swisspair.v1.PairingService/<Method>`): any HTTP method but `POST`
//! is 405 with `Allow: POST`; a `POST` in `application/json` or `application/proto` is a
//! Connect call, in `application/grpc*` passes down, in any other content type is 415.
//! Elsewhere: `GET`/`HEAD` of a page file is the page (unless `--no-page`), gRPC passes
//! down, anything else is 404.
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;
use http::{HeaderValue, Method, Request, Response, StatusCode, header};
use http_body_util::Full;
use tonic::body::Body;
use tower::{Layer, Service};

use super::connect::{self, Codec};
use super::page;

/// What the layer serves besides passing gRPC through.
#[derive(Clone, Debug)]
pub struct WebSettings {
    /// `GET /` serves the page (`--no-page` turns it off).
    pub page: bool,
    /// The largest Connect request body, as for a gRPC message (`--max-message-bytes`).
    pub max_message_bytes: usize,
}

/// The layer of [`Web`].
#[derive(Clone, Debug)]
pub struct WebLayer(Arc<WebSettings>);

impl WebLayer {
    pub fn new(settings: WebSettings) -> WebLayer {
        WebLayer(Arc::new(settings))
    }
}

impl<S> Layer<S> for WebLayer {
    type Service = Web<S>;

    fn layer(&self, inner: S) -> Web<S> {
        Web {
            inner,
            settings: self.0.clone(),
        }
    }
}

/// Serves the page and Connect calls; passes gRPC and gRPC-Web to `inner`.
#[derive(Clone, Debug)]
pub struct Web<S> {
    inner: S,
    settings: Arc<WebSettings>,
}

/// Where a request goes.
enum Route {
    Asset(&'static page::Asset),
    Connect(Codec),
    Grpc,
    /// A `PairingService` path asked with another HTTP method than `POST`.
    MethodNotAllowed,
    /// A `PairingService` path in a content type neither gRPC nor Connect.
    UnsupportedMediaType,
    NotFound,
}

fn route(request: &Request<Body>, settings: &WebSettings) -> Route {
    let path = request.uri().path();
    // Every call is a POST: another method on a method path is refused as such, before
    // its content type is looked at (a `GET` from a browser's address bar has none).
    if path.starts_with(connect::SERVICE_PATH) && request.method() != Method::POST {
        return Route::MethodNotAllowed;
    }
    if path.starts_with(connect::SERVICE_PATH)
        && let Some(codec) = Codec::of(request.headers())
    {
        return Route::Connect(codec);
    }
    let grpc = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/grpc"));
    if grpc {
        return Route::Grpc;
    }
    if path.starts_with(connect::SERVICE_PATH) {
        return Route::UnsupportedMediaType;
    }
    if settings.page
        && matches!(*request.method(), Method::GET | Method::HEAD)
        && let Some(asset) = page::asset(path)
    {
        return Route::Asset(asset);
    }
    Route::NotFound
}

type BoxFuture<T, E> = Pin<Box<dyn Future<Output = Result<T, E>> + Send>>;

impl<S> Service<Request<Body>> for Web<S>
where
    S: Service<Request<Body>, Response = Response<Body>> + Clone + Send + 'static,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
{
    type Response = Response<Body>;
    type Error = S::Error;
    type Future = BoxFuture<Response<Body>, S::Error>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<Body>) -> Self::Future {
        // The service made ready by `poll_ready` serves this request; a clone stays.
        let clone = self.inner.clone();
        let mut ready = std::mem::replace(&mut self.inner, clone);
        match route(&request, &self.settings) {
            Route::Grpc => Box::pin(ready.call(request)),
            Route::Connect(codec) => {
                let max = self.settings.max_message_bytes;
                Box::pin(async move { Ok(connect::call(ready, request, codec, max).await) })
            }
            Route::Asset(asset) => {
                let head = request.method() == Method::HEAD;
                Box::pin(async move { Ok(asset_response(asset, head)) })
            }
            Route::MethodNotAllowed => {
                let path = request.uri().path();
                let method = path.trim_start_matches(connect::SERVICE_PATH).to_string();
                let verb = request.method().clone();
                Box::pin(async move { Ok(connect::method_not_allowed(&method, &verb)) })
            }
            Route::UnsupportedMediaType => Box::pin(async move {
                let mut response = connect::error(&tonic::Status::invalid_argument(
                    "content-type: application/json or application/proto (Connect), \
                     application/grpc (gRPC) or application/grpc-web (gRPC-Web)",
                ));
                *response.status_mut() = StatusCode::UNSUPPORTED_MEDIA_TYPE;
                Ok(response)
            }),
            Route::NotFound => Box::pin(async move { Ok(not_found()) }),
        }
    }
}

fn asset_response(asset: &page::Asset, head: bool) -> Response<Body> {
    let body = if head {
        Bytes::new()
    } else {
        Bytes::from_static(asset.body)
    };
    let mut response = Response::new(Body::new(Full::new(body)));
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(asset.content_type),
    );
    // Everything the page needs is in the binary: it may load nothing from elsewhere.
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'",
        ),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}

fn not_found() -> Response<Body> {
    let text = "not found: this port answers gRPC, gRPC-Web, the Connect protocol \
                (POST /swisspair.v1.PairingService/<Method>, content-type application/json) \
                and, unless --no-page, the page at /\n";
    let mut response = Response::new(Body::new(Full::new(Bytes::from_static(text.as_bytes()))));
    *response.status_mut() = StatusCode::NOT_FOUND;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

/// CORS for the origins of `--cors-origin` (`*`: any), preflight included, for gRPC-Web and
/// Connect calls from pages served elsewhere. `None` (no origin named): no CORS headers at
/// all, so browsers refuse cross-origin calls.
pub fn cors(origins: &[String]) -> Result<Option<tower_http::cors::CorsLayer>, String> {
    use tower_http::cors::{AllowOrigin, CorsLayer};
    if origins.is_empty() {
        return Ok(None);
    }
    let allow = if origins.iter().any(|o| o == "*") {
        AllowOrigin::any()
    } else {
        let list = origins
            .iter()
            .map(|o| {
                HeaderValue::from_str(o.trim_end_matches('/'))
                    .map_err(|e| format!("--cors-origin {o:?}: {e}"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        AllowOrigin::list(list)
    };
    let names = |list: &[&'static str]| {
        list.iter()
            .map(|n| http::HeaderName::from_static(n))
            .collect::<Vec<_>>()
    };
    Ok(Some(
        CorsLayer::new()
            .allow_origin(allow)
            .allow_methods([Method::POST, Method::GET, Method::OPTIONS])
            .allow_headers(names(&[
                "content-type",
                "authorization",
                "connect-protocol-version",
                "connect-timeout-ms",
                "grpc-timeout",
                "x-grpc-web",
                "x-user-agent",
            ]))
            .expose_headers(names(&[
                "grpc-status",
                "grpc-message",
                "grpc-status-details-bin",
            ]))
            .max_age(std::time::Duration::from_secs(7200)),
    ))
}
