//! The HTTP/1.x server `gdl player` needs, on hyper over a tokio runtime of one thread: a
//! connection is a task, not a thread, so idle connections cost a socket and no more. One
//! request per connection (GGP referees open one per message). Every message must arrive
//! within the time given, counted from when its connection was taken: the head under hyper's
//! header deadline, the body under the same deadline here — a client that trickles its bytes
//! or sends nothing is answered 408 and cut off. Bodies are bounded in size (413 without
//! reading them), heads too (431), and connections at once (503). The handler is async: it
//! must not think on the runtime's thread (the engine runs on a thread of its own).

use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Body, Bytes, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// Longest request head (request line and headers).
const MAX_HEAD: usize = 16 << 10;
/// Most connections served at once; more are answered 503 at once. Each holds a file
/// descriptor: `serve` raises the process's limit to fit them, or serves fewer.
const MAX_CONNECTIONS: usize = 8192;
/// File descriptors kept for everything but connections (the engine, logs, the runtime).
const RESERVED_FILES: usize = 64;

/// An answer: HTTP status and body.
pub type Answer = (u16, String);

/// A request read in full: its method and body, and when its connection was taken.
pub struct Request {
    pub method: String,
    pub body: Vec<u8>,
    pub arrived: Instant,
}

/// What the handler answers, and what to do once the answer has been sent.
pub struct Reply {
    pub answer: Answer,
    pub sent: Option<Box<dyn FnOnce() + Send>>,
}

/// The bounds of the server.
#[derive(Clone, Copy)]
pub struct Bounds {
    /// Seconds a message may take to arrive.
    pub seconds: f64,
    /// Longest body, in bytes.
    pub max_body: usize,
}

/// Serves every connection of `listener` until the process ends: `handle` gets each request
/// read within the bounds; what cannot be read is answered here, with `headers`.
pub fn serve<H, F>(listener: std::net::TcpListener, bounds: Bounds, headers: &'static [(&str, &str)], handle: H)
where
    H: Fn(Request) -> F + Send + Sync + 'static,
    F: Future<Output = Reply> + Send + 'static,
{
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build();
    let runtime = runtime.expect("a runtime of one thread builds");
    let most = connections_allowed();
    runtime.block_on(async move {
        listener.set_nonblocking(true).expect("a listening socket can be made non-blocking");
        let listener = TcpListener::from_std(listener).expect("a listening socket joins the runtime");
        let handle = Arc::new(handle);
        let open = Arc::new(AtomicUsize::new(0));
        loop {
            let mut stream = match listener.accept().await {
                Ok((stream, _)) => stream,
                Err(e) => {
                    // Out of file descriptors, or a connection reset before it was taken:
                    // wait a little rather than spin.
                    eprintln!("gdl player: cannot take a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            };
            let arrived = Instant::now();
            if open.fetch_add(1, Ordering::SeqCst) >= most {
                let open = open.clone();
                tokio::spawn(async move {
                    respond_raw(&mut stream, 503, "error: too many connections at once", headers).await;
                    open.fetch_sub(1, Ordering::SeqCst);
                });
                continue;
            }
            let (handle, open) = (handle.clone(), open.clone());
            tokio::spawn(async move {
                connection(stream, arrived, bounds, headers, &*handle).await;
                open.fetch_sub(1, Ordering::SeqCst);
            });
        }
    });
}

/// Serves the one request of a connection taken at `arrived`.
async fn connection<H, F>(
    mut stream: TcpStream,
    arrived: Instant,
    bounds: Bounds,
    headers: &'static [(&str, &str)],
    handle: &H,
) where
    H: Fn(Request) -> F,
    F: Future<Output = Reply>,
{
    let deadline = arrived + Duration::from_secs_f64(bounds.seconds);
    // Set when the answer leaves bytes of the request unread.
    let unread = AtomicBool::new(false);
    let sent = Mutex::new(None);
    let service = service_fn(|request: hyper::Request<Incoming>| {
        let (unread, sent) = (&unread, &sent);
        async move {
            let method = request.method().to_string();
            let answer = match body(request.into_body(), deadline, bounds).await {
                Ok(body) => {
                    let reply = handle(Request { method, body, arrived }).await;
                    *sent.lock().expect("no task panics holding it") = reply.sent;
                    reply.answer
                }
                Err(answer) => {
                    unread.store(true, Ordering::SeqCst);
                    answer
                }
            };
            if answer.0 >= 400 {
                eprintln!("gdl player: answered {}: {}", answer.0, answer.1);
            }
            Ok::<_, std::convert::Infallible>(response(answer, headers))
        }
    });
    let served = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(Duration::from_secs_f64(bounds.seconds))
        .max_header_size(MAX_HEAD)
        .keep_alive(false)
        .title_case_headers(true)
        .serve_connection(TokioIo::new(&mut stream), service)
        .await;
    match served {
        Ok(()) => {}
        Err(e) if e.is_timeout() => {
            let answer = late(bounds.seconds);
            eprintln!("gdl player: answered {}: {}", answer.0, answer.1);
            respond_raw(&mut stream, answer.0, &answer.1, headers).await;
            unread.store(true, Ordering::SeqCst);
        }
        // hyper has answered these itself (400, 431).
        Err(e) if e.is_parse_too_large() => {
            eprintln!("gdl player: answered 431: error: the request's head is too long");
            unread.store(true, Ordering::SeqCst);
        }
        Err(e) if e.is_parse() => {
            eprintln!("gdl player: answered 400: error: not an HTTP request: {e}");
            unread.store(true, Ordering::SeqCst);
        }
        // The client went away: nobody to answer.
        Err(_) => {}
    }
    if let Some(sent) = sent.into_inner().expect("no task panics holding it") {
        sent();
    }
    if unread.into_inner() {
        drain(&mut stream).await;
    }
}

/// The body of a request, read by `deadline`, or the answer saying why not.
async fn body(body: Incoming, deadline: Instant, bounds: Bounds) -> Result<Vec<u8>, Answer> {
    let too_long = || (413, format!("error: a message may have {} MB at most", bounds.max_body >> 20));
    // A Content-Length above the bound is refused before a byte of the body is read.
    if body.size_hint().lower() > bounds.max_body as u64 {
        return Err(too_long());
    }
    match tokio::time::timeout_at(deadline.into(), Limited::new(body, bounds.max_body).collect()).await {
        Err(_) => Err(late(bounds.seconds)),
        Ok(Ok(collected)) => Ok(collected.to_bytes().to_vec()),
        Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => Err(too_long()),
        Ok(Err(_)) => Err((400, "error: the connection closed before the message's end".into())),
    }
}

/// The answer to a message that took too long to arrive.
fn late(seconds: f64) -> Answer {
    (408, format!("error: the message took more than {seconds} s to arrive"))
}

/// An answer as hyper sends it.
fn response((status, body): Answer, headers: &'static [(&'static str, &'static str)]) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(body)));
    *response.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    for (name, value) in headers {
        response.headers_mut().insert(*name, hyper::header::HeaderValue::from_static(value));
    }
    response
}

/// Writes an answer given outside hyper (no request was read: a 503 at once, a 408 when the
/// head did not arrive in time) within 10 s, and closes the writing side.
async fn respond_raw(stream: &mut TcpStream, status: u16, body: &str, headers: &[(&str, &str)]) {
    let reason = StatusCode::from_u16(status).ok().and_then(|s| s.canonical_reason()).unwrap_or("Error");
    let mut head = format!("HTTP/1.1 {status} {reason}\r\nContent-Length: {}\r\nConnection: close\r\n", body.len());
    for (name, value) in headers {
        head += &format!("{name}: {value}\r\n");
    }
    let text = format!("{head}\r\n{body}");
    // The client may have given up and closed the connection, or not read: nothing to do then.
    let _ = tokio::time::timeout(Duration::from_secs(10), stream.write_all(text.as_bytes())).await;
    let _ = stream.shutdown().await;
}

/// Reads and drops what the client still sends, for a second at most: closing a connection
/// with unread bytes would reset it before the client reads the answer (a 413).
async fn drain(stream: &mut TcpStream) {
    let mut chunk = [0u8; 16 << 10];
    let reading = async { while matches!(stream.read(&mut chunk).await, Ok(n) if n > 0) {} };
    let _ = tokio::time::timeout(Duration::from_secs(1), reading).await;
}

/// How many connections may be open at once: `MAX_CONNECTIONS`, or fewer when the process
/// may not open that many files; the limit is raised as far as the system allows first.
fn connections_allowed() -> usize {
    let files = raise_file_limit(MAX_CONNECTIONS + RESERVED_FILES);
    files.saturating_sub(RESERVED_FILES).clamp(1, MAX_CONNECTIONS)
}

/// Raises the process's limit of open files towards `wanted`; returns the limit now.
#[cfg(unix)]
fn raise_file_limit(wanted: usize) -> usize {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit and setrlimit read and write the one struct given.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return wanted;
        }
        let target = (wanted as libc::rlim_t).min(limit.rlim_max);
        if limit.rlim_cur < target {
            let raised = libc::rlimit { rlim_cur: target, rlim_max: limit.rlim_max };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                limit = raised;
            }
        }
    }
    usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX)
}

#[cfg(not(unix))]
fn raise_file_limit(wanted: usize) -> usize {
    wanted
}
