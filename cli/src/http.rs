//! The small HTTP/1.x server `gdl player` needs, on std's sockets and `httparse`: one thread
//! per connection and one request per connection (GGP referees open one per message), every
//! read bounded by the time left for the whole message — a client that trickles its bytes is
//! cut off (408) whatever the size of its message, and holds a thread no longer — bodies
//! bounded in size (413 without reading them), and a bound on connections at once (503).

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// Longest request head (request line and headers).
const MAX_HEAD: usize = 16 << 10;
/// Most connections served at once; more are answered 503 at once.
pub const MAX_CONNECTIONS: usize = 64;

/// An answer: HTTP status and body.
pub type Answer = (u16, String);

/// A request read in full: its method and body, when it arrived, and where to answer.
pub struct Request {
    pub method: String,
    pub body: Vec<u8>,
    pub arrived: Instant,
    stream: TcpStream,
}

impl Request {
    /// Sends `answer` with `headers` and closes the connection.
    pub fn respond(mut self, (status, body): Answer, headers: &[(&str, &str)]) {
        respond(&mut self.stream, status, &body, headers);
    }
}

/// Serves every connection of `listener` on a thread of its own: `handle` gets each request
/// read within `seconds`, of at most `max_body` bytes; what cannot be read is answered here.
pub fn serve(
    listener: TcpListener,
    seconds: f64,
    max_body: usize,
    headers: &'static [(&str, &str)],
    handle: impl Fn(Request) + Send + Sync + 'static,
) {
    let handle = Arc::new(handle);
    let open = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming().flatten() {
        let arrived = Instant::now();
        if open.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
            open.fetch_sub(1, Ordering::SeqCst);
            let mut stream = stream;
            respond(&mut stream, 503, "error: too many connections at once", headers);
            continue;
        }
        let (handle, open) = (handle.clone(), open.clone());
        thread::spawn(move || {
            match read(stream, arrived, seconds, max_body) {
                Ok(request) => handle(request),
                Err((mut stream, answer)) => {
                    eprintln!("gdl player: answered {}: {}", answer.0, answer.1);
                    respond(&mut stream, answer.0, &answer.1, headers);
                    drain(&mut stream);
                }
            }
            open.fetch_sub(1, Ordering::SeqCst);
        });
    }
}

/// Reads one request within `seconds` of `arrived`.
fn read(
    mut stream: TcpStream,
    arrived: Instant,
    seconds: f64,
    max_body: usize,
) -> Result<Request, (TcpStream, Answer)> {
    let deadline = arrived + Duration::from_secs_f64(seconds);
    let late = || (408, format!("error: the message took more than {seconds} s to arrive"));
    let mut buffer = Vec::new();
    let mut chunk = [0u8; 16 << 10];
    // The head, then as much of the body as came with it.
    let (method, length, start) = loop {
        let mut headers = [httparse::EMPTY_HEADER; 32];
        let mut parsed = httparse::Request::new(&mut headers);
        match parsed.parse(&buffer) {
            Ok(httparse::Status::Complete(start)) => {
                let length = parsed.headers.iter().find(|h| h.name.eq_ignore_ascii_case("content-length"));
                let length = match length
                    .map(|h| std::str::from_utf8(h.value).ok().and_then(|v| v.trim().parse::<usize>().ok()))
                {
                    None => 0,
                    Some(Some(n)) => n,
                    Some(None) => return Err((stream, (400, "error: the Content-Length is not a number".into()))),
                };
                break (parsed.method.unwrap_or("").to_string(), length, start);
            }
            Ok(httparse::Status::Partial) if buffer.len() < MAX_HEAD => {}
            Ok(httparse::Status::Partial) => {
                return Err((stream, (431, "error: the request's head is too long".into())))
            }
            Err(e) => return Err((stream, (400, format!("error: not an HTTP request: {e}")))),
        }
        match read_some(&mut stream, &mut chunk, deadline) {
            Ok(0) => return Err((stream, (400, "error: the connection closed before the request's end".into()))),
            Ok(n) => buffer.extend_from_slice(&chunk[..n]),
            Err(_) => return Err((stream, late())),
        }
    };
    if length > max_body {
        return Err((stream, (413, format!("error: a message may have {} MB at most", max_body >> 20))));
    }
    let mut body = buffer.split_off(start);
    while body.len() < length {
        match read_some(&mut stream, &mut chunk, deadline) {
            Ok(0) => return Err((stream, (400, "error: the connection closed before the message's end".into()))),
            Ok(n) => body.extend_from_slice(&chunk[..n.min(length - body.len())]),
            Err(_) => return Err((stream, late())),
        }
    }
    Ok(Request { method, body, arrived, stream })
}

/// Reads and drops what the client still sends, for a second at most: closing a connection
/// with unread bytes would reset it before the client reads the answer (a 413).
fn drain(stream: &mut TcpStream) {
    let deadline = Instant::now() + Duration::from_secs(1);
    let mut chunk = [0u8; 16 << 10];
    while let Ok(n) = read_some(stream, &mut chunk, deadline) {
        if n == 0 {
            break;
        }
    }
}

/// One read that gives up at `deadline`.
fn read_some(stream: &mut TcpStream, chunk: &mut [u8], deadline: Instant) -> std::io::Result<usize> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Err(std::io::ErrorKind::TimedOut.into());
    }
    stream.set_read_timeout(Some(left))?;
    stream.read(chunk)
}

/// Writes a response (within 10 s: a client that does not read is dropped) and closes.
fn respond(stream: &mut TcpStream, status: u16, body: &str, headers: &[(&str, &str)]) {
    let reason = match status {
        200 => "OK",
        204 => "No Content",
        400 => "Bad Request",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        413 => "Payload Too Large",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "Error",
    };
    let mut head = format!("HTTP/1.1 {status} {reason}\r\nContent-Length: {}\r\nConnection: close\r\n", body.len());
    for (name, value) in headers {
        head += &format!("{name}: {value}\r\n");
    }
    let _ = stream.set_write_timeout(Some(Duration::from_secs(10)));
    // The client may have given up and closed the connection: nothing to do then.
    let _ = stream.write_all(format!("{head}\r\n{body}").as_bytes());
    let _ = stream.shutdown(std::net::Shutdown::Write);
}
