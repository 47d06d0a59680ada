//! A minimal HTTP/1.1 server (keep-alive, `Content-Length` and chunked
//! bodies) and a `multipart/form-data` reader: enough for what reqwest
//! sends, with no server framework to build.

use std::sync::Arc;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};

use super::Upload;

/// A request as received.
pub(crate) struct Request {
    pub(crate) method: String,
    /// The path without the query.
    pub(crate) path: String,
    /// The query without `?`.
    pub(crate) query: String,
    /// Header names in lower case.
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: Vec<u8>,
}

impl Request {
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// A query parameter (`a=b&c=d`; serenity writes `?&a=b`).
    pub(crate) fn param(&self, name: &str) -> Option<&str> {
        self.query.split('&').filter_map(|kv| kv.split_once('=')).find(|(k, _)| *k == name).map(|(_, v)| v)
    }

    /// The JSON body and the uploaded files: `payload_json` and `files[n]`
    /// parts for multipart, else the whole body.
    pub(crate) fn json_and_files(&self) -> Result<(serde_json::Value, Vec<Upload>), String> {
        let ct = self.header("content-type").unwrap_or("");
        if let Some(boundary) = ct.strip_prefix("multipart/form-data").and_then(|r| r.split("boundary=").nth(1)) {
            let boundary = boundary.trim_matches('"');
            let mut json = serde_json::Value::Null;
            let mut files = Vec::new();
            for part in multipart(&self.body, boundary) {
                if part.name == "payload_json" {
                    json = serde_json::from_slice(&part.bytes).map_err(|e| e.to_string())?;
                } else if let Some(filename) = part.filename {
                    files.push(Upload { field: part.name, filename, bytes: part.bytes });
                }
            }
            return Ok((json, files));
        }
        if self.body.is_empty() {
            return Ok((serde_json::Value::Null, Vec::new()));
        }
        serde_json::from_slice(&self.body).map(|v| (v, Vec::new())).map_err(|e| e.to_string())
    }
}

/// A response: a status, extra headers and a JSON body (none for 204).
pub(crate) struct Response {
    pub(crate) status: u16,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: Option<serde_json::Value>,
}

impl Response {
    pub(crate) fn new(status: u16, body: Option<serde_json::Value>) -> Response {
        Response { status, headers: Vec::new(), body }
    }
}

/// The request handler.
pub(crate) type Handler = Arc<dyn Fn(Request) -> Response + Send + Sync>;

/// Serves until the task is aborted.
pub(crate) async fn serve(listener: tokio::net::TcpListener, handler: Handler) {
    loop {
        let Ok((sock, _)) = listener.accept().await else { continue };
        let handler = handler.clone();
        tokio::spawn(async move {
            let _ = connection(sock, handler).await;
        });
    }
}

async fn connection(sock: tokio::net::TcpStream, handler: Handler) -> std::io::Result<()> {
    let (r, mut w) = sock.into_split();
    let mut r = BufReader::new(r);
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).await? == 0 {
            return Ok(());
        }
        let line = line.trim_end();
        if line.is_empty() {
            continue;
        }
        let mut parts = line.split_whitespace();
        let method = parts.next().unwrap_or_default().to_string();
        let target = parts.next().unwrap_or_default().to_string();
        let mut headers = Vec::new();
        loop {
            let mut h = String::new();
            if r.read_line(&mut h).await? == 0 {
                return Ok(());
            }
            let h = h.trim_end();
            if h.is_empty() {
                break;
            }
            if let Some((n, v)) = h.split_once(':') {
                headers.push((n.trim().to_ascii_lowercase(), v.trim().to_string()));
            }
        }
        let get = |n: &str| headers.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
        let mut body = Vec::new();
        if get("transfer-encoding").is_some_and(|v| v.eq_ignore_ascii_case("chunked")) {
            loop {
                let mut size = String::new();
                r.read_line(&mut size).await?;
                let size = usize::from_str_radix(size.trim().split(';').next().unwrap_or("0"), 16).unwrap_or(0);
                let mut chunk = vec![0; size + 2];
                r.read_exact(&mut chunk).await?;
                if size == 0 {
                    break;
                }
                body.extend_from_slice(&chunk[..size]);
            }
        } else if let Some(n) = get("content-length").and_then(|v| v.parse::<usize>().ok()) {
            body = vec![0; n];
            r.read_exact(&mut body).await?;
        }
        let close = get("connection").is_some_and(|v| v.eq_ignore_ascii_case("close"));
        let (path, query) = match target.split_once('?') {
            Some((p, q)) => (p.to_string(), q.to_string()),
            None => (target.clone(), String::new()),
        };
        let resp = handler(Request { method, path, query, headers, body });
        let mut out = format!("HTTP/1.1 {} {}\r\n", resp.status, reason(resp.status));
        let body = resp.body.map(|b| b.to_string()).unwrap_or_default();
        if resp.status != 204 {
            out.push_str(&format!("content-type: application/json\r\ncontent-length: {}\r\n", body.len()));
        }
        for (k, v) in &resp.headers {
            out.push_str(&format!("{k}: {v}\r\n"));
        }
        out.push_str("\r\n");
        out.push_str(&body);
        w.write_all(out.as_bytes()).await?;
        w.flush().await?;
        if close {
            return Ok(());
        }
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        204 => "No Content",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        429 => "Too Many Requests",
        _ => "Status",
    }
}

struct Part {
    name: String,
    filename: Option<String>,
    bytes: Vec<u8>,
}

fn find(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    hay.get(from..)?.windows(needle.len()).position(|w| w == needle).map(|p| p + from)
}

fn multipart(body: &[u8], boundary: &str) -> Vec<Part> {
    let delim = format!("--{boundary}");
    let mut parts = Vec::new();
    let Some(mut at) = find(body, delim.as_bytes(), 0) else { return parts };
    loop {
        at += delim.len();
        if body.get(at..at + 2) == Some(b"--") {
            break;
        }
        at += 2; // CRLF
        let Some(head_end) = find(body, b"\r\n\r\n", at) else { break };
        let head = String::from_utf8_lossy(&body[at..head_end]).to_string();
        let start = head_end + 4;
        let Some(next) = find(body, format!("\r\n{delim}").as_bytes(), start) else { break };
        let mut name = String::new();
        let mut filename = None;
        for line in head.lines() {
            if line.to_ascii_lowercase().starts_with("content-disposition") {
                for attr in line.split(';').map(str::trim) {
                    if let Some(v) = attr.strip_prefix("name=") {
                        name = v.trim_matches('"').to_string();
                    } else if let Some(v) = attr.strip_prefix("filename=") {
                        filename = Some(v.trim_matches('"').to_string());
                    }
                }
            }
        }
        parts.push(Part { name, filename, bytes: body[start..next].to_vec() });
        at = next + 2;
    }
    parts
}

/// A minimal HTTP/1.1 client for POSTs to an interactions endpoint, keeping
/// connections alive per address (a pool of idle ones).
#[derive(Default)]
pub(crate) struct Client {
    idle: std::sync::Mutex<std::collections::HashMap<String, Vec<BufReader<tokio::net::TcpStream>>>>,
}

impl Client {
    /// POSTs `body` to `url` (`http://host:port/path`): the status and the
    /// body. A request is sent again on a new connection only when a kept
    /// connection had been closed before anything was written to it.
    pub(crate) async fn post(
        &self,
        url: &str,
        headers: &[(&str, String)],
        body: &[u8],
    ) -> std::io::Result<(u16, Vec<u8>)> {
        let bad = || std::io::Error::new(std::io::ErrorKind::InvalidInput, format!("not an http URL: {url}"));
        let rest = url.strip_prefix("http://").ok_or_else(bad)?;
        let (host, path) = match rest.find('/') {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, "/"),
        };
        let mut head = format!("POST {path} HTTP/1.1\r\nhost: {host}\r\ncontent-length: {}\r\n", body.len());
        for (k, v) in headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str("\r\n");
        let mut request = head.into_bytes();
        request.extend_from_slice(body);
        let kept = self.idle.lock().unwrap_or_else(|e| e.into_inner()).get_mut(host).and_then(Vec::pop);
        let mut conn = match kept {
            Some(mut c) => {
                // a kept connection the server has closed shows as readable
                // (EOF) before anything is written: drop it
                if still_open(&mut c).await { c } else { BufReader::new(tokio::net::TcpStream::connect(host).await?) }
            }
            None => BufReader::new(tokio::net::TcpStream::connect(host).await?),
        };
        conn.get_mut().write_all(&request).await?;
        conn.get_mut().flush().await?;
        let (status, body, keep) = read_response(&mut conn).await?;
        if keep {
            self.idle.lock().unwrap_or_else(|e| e.into_inner()).entry(host.to_string()).or_default().push(conn);
        }
        Ok((status, body))
    }
}

/// Whether a kept connection is still open (nothing to read, no EOF).
async fn still_open(c: &mut BufReader<tokio::net::TcpStream>) -> bool {
    if !c.buffer().is_empty() {
        return false;
    }
    let mut probe = [0u8; 1];
    matches!(c.get_ref().try_read(&mut probe), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock)
}

/// Reads a response: the status, the body, and whether the connection may
/// be used again.
async fn read_response(r: &mut BufReader<tokio::net::TcpStream>) -> std::io::Result<(u16, Vec<u8>, bool)> {
    let eof = || std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "the connection ended");
    let mut line = String::new();
    if r.read_line(&mut line).await? == 0 {
        return Err(eof());
    }
    let status: u16 = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidData, format!("bad status line {line:?}")))?;
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        if r.read_line(&mut h).await? == 0 {
            return Err(eof());
        }
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        if let Some((n, v)) = h.split_once(':') {
            headers.push((n.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
    }
    let get = |n: &str| headers.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
    let mut keep = !get("connection").is_some_and(|v| v.eq_ignore_ascii_case("close"));
    let mut body = Vec::new();
    if get("transfer-encoding").is_some_and(|v| v.eq_ignore_ascii_case("chunked")) {
        loop {
            let mut size = String::new();
            r.read_line(&mut size).await?;
            let size = usize::from_str_radix(size.trim().split(';').next().unwrap_or("0"), 16).unwrap_or(0);
            let mut chunk = vec![0; size + 2];
            r.read_exact(&mut chunk).await?;
            if size == 0 {
                break;
            }
            body.extend_from_slice(&chunk[..size]);
        }
    } else if let Some(n) = get("content-length").and_then(|v| v.parse::<usize>().ok()) {
        body = vec![0; n];
        r.read_exact(&mut body).await?;
    } else if status != 204 && status != 304 {
        // the body runs to the end of the connection
        r.read_to_end(&mut body).await?;
        keep = false;
    }
    Ok((status, body, keep))
}
