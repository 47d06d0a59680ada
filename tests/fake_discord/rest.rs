//! The REST routes under `/api/v10`, with Discord's status codes and JSON
//! error codes (`topics/opcodes-and-status-codes.mdx`).

use std::time::Instant;

use serde_json::{Value, json};

use super::http::{Request, Response};
use super::payloads::{self, flags_of};
use super::{Callback, EPHEMERAL, Inner, LOADING, MessageRecord, Pending, RestRequest, State, Upload, id_of};

/// Discord's error shape: `{"message": ..., "code": ...}`.
fn err(status: u16, code: u64, message: &str) -> Response {
    Response::new(status, Some(json!({"message": message, "code": code})))
}

/// 400 Invalid Form Body (50035) with one field error, in the documented
/// `errors` layout.
fn form_err(field: &str, code: &str, message: &str) -> Response {
    let mut errors = json!({});
    errors[field] = json!({"_errors": [{"code": code, "message": message}]});
    Response::new(400, Some(json!({"message": "Invalid Form Body", "code": 50035, "errors": errors})))
}

fn ok(body: Value) -> Response {
    Response::new(200, Some(body))
}

fn no_content() -> Response {
    Response::new(204, None)
}

fn not_found() -> Response {
    err(404, 0, "404: Not Found")
}

/// Handles one request: answers it and records it.
pub(crate) fn handle(inner: &Inner, req: Request) -> Response {
    let resp = {
        let mut st = inner.lock();
        let limited = rate_limited(&mut st, &req);
        let (body, resp, known) = match req.json_and_files() {
            Ok((body, files)) => match limited {
                Some(r) => (body, r, true),
                None => {
                    let (resp, known) = route(&mut st, &req, &body, files);
                    (body, resp, known)
                }
            },
            Err(e) => (Value::Null, err(400, 50109, &format!("The request body contains invalid JSON: {e}")), true),
        };
        let rec = RestRequest {
            method: req.method.clone(),
            path: req.path.clone(),
            query: req.query.clone(),
            body,
            status: resp.status,
        };
        if !known {
            st.unknown.push(rec.clone());
        }
        st.requests.push(rec);
        resp
    };
    inner.bump();
    resp
}

/// A 429 when the test asked for one on this route
/// (`topics/rate-limits.mdx`, Exceeding A Rate Limit): the body and the
/// headers Discord documents, `Retry-After` in whole seconds.
fn rate_limited(st: &mut State, req: &Request) -> Option<Response> {
    let i = st
        .rate_limits
        .iter()
        .position(|r| r.count > 0 && r.method == req.method && req.path.contains(r.path_contains.as_str()))?;
    let r = &mut st.rate_limits[i];
    r.count -= 1;
    let secs = r.retry_after.as_secs_f64();
    let mut resp = Response::new(
        429,
        Some(json!({"message": "You are being rate limited.", "retry_after": secs, "global": false})),
    );
    let reset =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().as_secs_f64() + secs;
    for (k, v) in [
        ("retry-after", format!("{}", secs.ceil() as u64)),
        ("x-ratelimit-limit", "5".to_string()),
        ("x-ratelimit-remaining", "0".to_string()),
        ("x-ratelimit-reset", format!("{reset:.3}")),
        ("x-ratelimit-reset-after", format!("{secs:.3}")),
        ("x-ratelimit-bucket", "fakebucket".to_string()),
        ("x-ratelimit-scope", "user".to_string()),
    ] {
        resp.headers.push((k.to_string(), v));
    }
    Some(resp)
}

/// Answers a request; `false` when the route is not one the fake knows.
fn route(st: &mut State, req: &Request, body: &Value, files: Vec<Upload>) -> (Response, bool) {
    let Some(rest) = req.path.strip_prefix("/api/v10/") else { return (not_found(), false) };
    let seg: Vec<&str> = rest.trim_end_matches('/').split('/').collect();
    let m = req.method.as_str();
    let token = st.config.token.clone();
    let authorized = req.header("authorization").is_some_and(|a| a == format!("Bot {token}"));
    let needs_auth = !matches!(seg.first(), Some(&"gateway") if seg.len() == 1)
        && !matches!(seg.first(), Some(&"interactions") | Some(&"webhooks"));
    // which routes exist, whatever the method
    let methods: &[&str] = match seg.as_slice() {
        ["gateway"] | ["gateway", "bot"] | ["oauth2", "applications", "@me"] => &["GET"],
        ["users", "@me"] => &["GET", "PATCH"],
        ["users", _] => &["GET"],
        ["users", "@me", "channels"] => &["POST"],
        ["applications", _, "commands"] | ["applications", _, "guilds", _, "commands"] => &["GET", "PUT", "POST"],
        ["interactions", _, _, "callback"] => &["POST"],
        ["webhooks", _, _] => &["GET", "POST", "PATCH", "DELETE"],
        ["webhooks", _, _, "messages", _] => &["GET", "PATCH", "DELETE"],
        ["channels", _] => &["GET", "PATCH", "DELETE"],
        ["channels", _, "messages"] => &["GET", "POST"],
        ["channels", _, "messages", _] => &["GET", "PATCH", "DELETE"],
        _ => return (not_found(), false),
    };
    if !methods.contains(&m) {
        return (err(405, 0, "405: Method Not Allowed"), false);
    }
    if needs_auth && !authorized {
        return (err(401, 0, "401: Unauthorized"), true);
    }
    let resp = match (m, seg.as_slice()) {
        ("GET", ["gateway"]) => ok(json!({"url": st.gateway_url})),
        ("GET", ["gateway", "bot"]) => {
            let identifies = st.ops.iter().filter(|o| o.op == 2).count() as u64;
            ok(json!({
                "url": st.gateway_url,
                "shards": st.config.shards,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000u64.saturating_sub(identifies),
                    "reset_after": 14_400_000,
                    "max_concurrency": 1,
                },
            }))
        }
        ("GET", ["users", "@me"]) => ok(payloads::user(&st.config.bot, true)),
        ("GET", ["users", id]) => match id.parse().ok().and_then(|id| st.user(id)) {
            Some(u) => {
                let bot = u.id == st.config.bot.id;
                ok(payloads::user(u, bot))
            }
            None => err(404, 10013, "Unknown User"),
        },
        ("POST", ["users", "@me", "channels"]) => create_dm(st, body),
        ("GET", ["oauth2", "applications", "@me"]) => {
            let c = &st.config;
            ok(json!({
                "id": c.application_id.to_string(),
                "name": c.bot.name,
                "icon": null,
                "description": "",
                "bot_public": true,
                "bot_require_code_grant": false,
                "verify_key": super::signing::public_key_of(&super::signing::SIGNING_SEED),
                "flags": c.application_flags,
                "bot": payloads::user(&c.bot, true),
                "owner": c.users.first().map(|u| payloads::user(u, false)),
                "team": null,
            }))
        }
        (_, ["applications", app, "commands"]) => commands(st, m, app, None, body),
        (_, ["applications", app, "guilds", guild, "commands"]) => commands(st, m, app, Some(guild), body),
        ("POST", ["interactions", id, itoken, "callback"]) => callback(st, req, id, itoken, body, files),
        (_, ["webhooks", app, wtoken]) => webhook(st, m, app, wtoken, None, body, files),
        (_, ["webhooks", app, wtoken, "messages", msg]) => webhook(st, m, app, wtoken, Some(msg), body, files),
        ("GET", ["channels", id]) => get_channel(st, id),
        (_, ["channels", _]) => err(403, 50013, "Missing Permissions"),
        ("GET", ["channels", id, "messages"]) => list_messages(st, req, id),
        ("POST", ["channels", id, "messages"]) => create_message(st, id, body, files),
        (_, ["channels", id, "messages", msg]) => channel_message(st, m, id, msg, body, files),
        ("PATCH", ["users", "@me"]) => ok(payloads::user(&st.config.bot, true)),
        _ => return (not_found(), false),
    };
    (resp, true)
}

/// `POST /users/@me/channels` (Create DM, `resources/user.mdx`): the DM
/// channel with `recipient_id`; it opens even when that user's DMs are
/// closed (sending then fails).
fn create_dm(st: &mut State, body: &Value) -> Response {
    let Some(uid) = id_of(&body["recipient_id"]) else {
        return form_err("recipient_id", "BASE_TYPE_REQUIRED", "This field is required");
    };
    let Some(u) = st.user(uid).cloned() else { return err(400, 50033, "Invalid Recipient(s)") };
    if u.id == st.config.bot.id {
        return err(400, 50007, "Cannot send messages to this user");
    }
    let c = st.dm_channel(uid);
    ok(payloads::dm_channel(c, &u))
}

/// The application commands: GET lists, PUT overwrites all (Bulk
/// Overwrite), POST creates or replaces one by name.
fn commands(st: &mut State, m: &str, app: &str, guild: Option<&str>, body: &Value) -> Response {
    if app.parse() != Ok(st.config.application_id) {
        return err(403, 50001, "Missing Access");
    }
    let guild = match guild {
        None => None,
        Some(g) => match g.parse().ok().filter(|g| st.config.guilds().iter().any(|x| x.id == *g)) {
            Some(g) => Some(g),
            None => return err(403, 50001, "Missing Access"),
        },
    };
    let current = match guild {
        None => st.global_commands.clone(),
        Some(g) => st.guild_commands.get(&g).cloned().unwrap_or_default(),
    };
    let new = match m {
        "GET" => return ok(Value::Array(current)),
        "PUT" => {
            let Some(list) = body.as_array() else {
                return form_err("_root", "BASE_TYPE_ARRAY", "Must be an array");
            };
            list.clone()
        }
        _ => {
            let mut all: Vec<Value> = current.into_iter().filter(|c| c["name"] != body["name"]).collect();
            all.push(body.clone());
            all
        }
    };
    let mut out = Vec::new();
    for (i, c) in new.iter().enumerate() {
        let name = c["name"].as_str().unwrap_or_default();
        let kind = c["type"].as_u64().unwrap_or(1);
        let name_ok = (1..=32).contains(&name.chars().count())
            && (kind != 1 || name.chars().all(|ch| ch == '-' || ch == '_' || ch.is_lowercase() || ch.is_numeric()));
        if !name_ok {
            return form_err(&i.to_string(), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid");
        }
        let desc = c["description"].as_str().unwrap_or_default();
        if kind == 1 && !(1..=100).contains(&desc.chars().count()) {
            return form_err(&i.to_string(), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.");
        }
        let id = match st.command_ids.get(name) {
            Some(id) => *id,
            None => {
                let id = st.snowflake();
                st.command_ids.insert(name.to_string(), id);
                id
            }
        };
        let mut full = c.clone();
        full["id"] = json!(id.to_string());
        full["application_id"] = json!(st.config.application_id.to_string());
        full["type"] = json!(kind);
        full["description"] = json!(desc);
        full["version"] = json!(st.snowflake().to_string());
        if let Some(g) = guild {
            full["guild_id"] = json!(g.to_string());
        }
        if full.get("default_member_permissions").is_none() {
            full["default_member_permissions"] = Value::Null;
        }
        out.push(full);
    }
    match guild {
        None => st.global_commands = out.clone(),
        Some(g) => {
            st.guild_commands.insert(g, out.clone());
        }
    }
    if m == "POST" {
        let created = out.last().cloned().unwrap_or(Value::Null);
        return Response::new(201, Some(created));
    }
    ok(Value::Array(out))
}

/// Checks a message body as Discord would: content up to 2000 characters,
/// at most 10 embeds, up to 5 action rows of up to 5 components, custom
/// ids up to 100 characters and unique, labels up to 80; `creating`: not
/// empty (50006).
fn validate(body: &Value, files: &[Upload], creating: bool) -> Result<(), Response> {
    let content = body["content"].as_str().unwrap_or_default();
    if content.chars().count() > 2000 {
        return Err(form_err("content", "BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length."));
    }
    if body["embeds"].as_array().is_some_and(|e| e.len() > 10) {
        return Err(form_err("embeds", "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length."));
    }
    let v2 = flags_of(body) & (1 << 15) != 0;
    if let Some(rows) = body["components"].as_array()
        && !v2
    {
        if rows.len() > 5 {
            return Err(form_err("components", "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length."));
        }
        let mut seen = std::collections::BTreeSet::new();
        for row in rows {
            let cs = row["components"].as_array().map(Vec::as_slice).unwrap_or_default();
            if row["type"] != 1 || cs.is_empty() || cs.len() > 5 {
                return Err(form_err(
                    "components",
                    "UNION_TYPE_CHOICES",
                    "Value of field \"type\" must be one of (1,).",
                ));
            }
            for c in cs {
                if let Some(id) = c["custom_id"].as_str() {
                    if id.is_empty() || id.chars().count() > 100 {
                        return Err(form_err(
                            "components",
                            "BASE_TYPE_BAD_LENGTH",
                            "Must be between 1 and 100 in length.",
                        ));
                    }
                    if !seen.insert(id.to_string()) {
                        return Err(form_err(
                            "components",
                            "COMPONENT_CUSTOM_ID_DUPLICATED",
                            "Component custom id cannot be duplicated",
                        ));
                    }
                } else if c["type"] == 2 && c["url"].is_null() && c["sku_id"].is_null() {
                    return Err(form_err("components", "BASE_TYPE_REQUIRED", "This field is required"));
                }
                if c["label"].as_str().is_some_and(|l| l.chars().count() > 80) {
                    return Err(form_err("components", "BASE_TYPE_MAX_LENGTH", "Must be 80 or fewer in length."));
                }
            }
        }
    }
    let empty = content.is_empty()
        && body["embeds"].as_array().is_none_or(Vec::is_empty)
        && body["components"].as_array().is_none_or(Vec::is_empty)
        && body["sticker_ids"].as_array().is_none_or(Vec::is_empty)
        && body["poll"].is_null()
        && files.is_empty();
    if creating && empty {
        return Err(err(400, 50006, "Cannot send an empty message"));
    }
    Ok(())
}

/// A new message record from a request body.
fn new_message(
    st: &mut State,
    channel: u64,
    body: &Value,
    files: Vec<Upload>,
    flags: u64,
    interaction: Option<u64>,
) -> u64 {
    let id = st.snowflake();
    let rec = MessageRecord {
        id,
        channel_id: channel,
        content: body["content"].as_str().unwrap_or_default().to_string(),
        components: if body["components"].is_array() { body["components"].clone() } else { json!([]) },
        flags,
        embeds: if body["embeds"].is_array() { body["embeds"].clone() } else { json!([]) },
        attachments: files,
        versions: vec![body.clone()],
        deleted: false,
        interaction,
    };
    st.messages.insert(id, rec);
    id
}

/// Applies an edit (the fields present replace the old ones; a deferred
/// response stops loading).
fn edit_message(st: &mut State, id: u64, body: &Value, files: Vec<Upload>) {
    let Some(m) = st.messages.get_mut(&id) else { return };
    if let Some(c) = body.get("content") {
        m.content = c.as_str().unwrap_or_default().to_string();
    }
    if let Some(c) = body.get("components") {
        m.components = if c.is_array() { c.clone() } else { json!([]) };
    }
    if let Some(e) = body.get("embeds") {
        m.embeds = if e.is_array() { e.clone() } else { json!([]) };
    }
    if !files.is_empty() {
        m.attachments = files;
    } else if body.get("attachments").is_some_and(|a| a.as_array().is_some_and(Vec::is_empty)) {
        m.attachments.clear();
    }
    m.flags &= !LOADING;
    m.versions.push(body.clone());
}

/// `POST /interactions/{id}/{token}/callback` (also a 200 from an
/// interactions endpoint, which is the same response).
pub(crate) fn callback(
    st: &mut State,
    req: &Request,
    id: &str,
    token: &str,
    body: &Value,
    files: Vec<Upload>,
) -> Response {
    let now = Instant::now();
    let kind = body["type"].as_u64().unwrap_or(0);
    let data = body.get("data").cloned().unwrap_or(Value::Null);
    let Some(iid) = id.parse::<u64>().ok().filter(|i| st.interactions.get(i).is_some_and(|p| p.token == token)) else {
        return err(404, 10062, "Unknown interaction");
    };
    let deadline = st.config.interaction_deadline;
    let p = &st.interactions[&iid];
    let (created, ikind, acked, channel, on_message) = (p.created, p.kind, p.acked, p.channel_id, p.message_id);
    let elapsed = now - created;
    let mut record = Callback {
        interaction: iid,
        kind,
        flags: flags_of(&data),
        content: data["content"].as_str().map(str::to_string),
        components: data.get("components").cloned().unwrap_or(Value::Null),
        data: data.clone(),
        attachments: files.clone(),
        elapsed,
        status: 204,
        error_code: None,
    };
    if let Some(r) = refusal(kind, ikind, acked.is_some(), elapsed > deadline, &data, &files) {
        record.status = r.status;
        record.error_code = r.body.as_ref().and_then(|b| b["code"].as_u64());
        st.callbacks.push(record);
        return r;
    }
    let original = original_message(st, kind, iid, (channel, on_message), &data, files);
    if let Some(p) = st.interactions.get_mut(&iid) {
        p.acked = Some(kind);
        p.original = original;
    }
    let with_response = req.param("with_response").is_some_and(|v| v == "true" || v == "True" || v == "1");
    let resp = if with_response { callback_response(st, kind, iid, ikind, original) } else { no_content() };
    record.status = resp.status;
    st.callbacks.push(record);
    resp
}

/// Why a callback of type `kind` to an interaction of type `ikind` is
/// refused, if it is: acknowledged already, too late, the wrong type for
/// the interaction, or a message Discord would not take.
fn refusal(kind: u64, ikind: u64, acked: bool, late: bool, data: &Value, files: &[Upload]) -> Option<Response> {
    let valid_for_kind = match kind {
        4 | 5 => ikind != 4,
        6 | 7 => ikind == 3,
        8 => ikind == 4,
        9 => ikind == 2 || ikind == 3,
        _ => false, // PONG only answers a PING, which comes over HTTP only
    };
    if acked {
        Some(err(400, 40060, "Interaction has already been acknowledged."))
    } else if late {
        Some(err(404, 10062, "Unknown interaction"))
    } else if !valid_for_kind {
        Some(form_err("type", "INTERACTION_RESPONSE_TYPE_INVALID", "Invalid interaction response type"))
    } else if kind == 4 || kind == 7 {
        validate(data, files, kind == 4).err()
    } else {
        None
    }
}

/// The message a callback of type `kind` made or updated (the
/// interaction's `@original`): a new one for a message or a deferral, the
/// clicked one (`on_message` in `channel`) for an update.
fn original_message(
    st: &mut State,
    kind: u64,
    iid: u64,
    (channel, on_message): (u64, Option<u64>),
    data: &Value,
    files: Vec<Upload>,
) -> Option<u64> {
    match kind {
        4 => {
            Some(new_message(st, channel, data, files, flags_of(data) & (EPHEMERAL | (1 << 2) | (1 << 12)), Some(iid)))
        }
        5 => {
            let empty = json!({"content": ""});
            Some(new_message(st, channel, &empty, Vec::new(), LOADING | (flags_of(data) & EPHEMERAL), Some(iid)))
        }
        6 | 7 => {
            let mid = on_message.unwrap_or(0);
            // a message the fake did not see made (built by the test)
            st.messages.entry(mid).or_insert_with(|| MessageRecord {
                id: mid,
                channel_id: channel,
                content: String::new(),
                components: json!([]),
                flags: 0,
                embeds: json!([]),
                attachments: Vec::new(),
                versions: vec![json!({})],
                deleted: false,
                interaction: None,
            });
            if kind == 7 {
                edit_message(st, mid, data, files);
            }
            Some(mid)
        }
        _ => None,
    }
}

/// The answer to a callback asked `with_response`: the interaction and the
/// resource, with the message made when there is one.
fn callback_response(st: &State, kind: u64, iid: u64, ikind: u64, original: Option<u64>) -> Response {
    let msg = original.and_then(|m| st.messages.get(&m)).map(|m| payloads::message(st, m));
    let mut interaction = json!({"id": iid.to_string(), "type": ikind});
    if let Some(m) = original.and_then(|m| st.messages.get(&m)) {
        interaction["response_message_id"] = json!(m.id.to_string());
        interaction["response_message_loading"] = json!(m.flags & LOADING != 0);
        interaction["response_message_ephemeral"] = json!(m.ephemeral());
    }
    let mut resource = json!({"type": kind});
    if let (4 | 7, Some(m)) = (kind, msg) {
        resource["message"] = m;
    }
    ok(json!({"interaction": interaction, "resource": resource}))
}

/// The interaction of a webhook token, if the token is valid.
fn by_token(st: &State, app: &str, token: &str) -> Result<u64, Response> {
    if app.parse() != Ok(st.config.application_id) {
        return Err(err(404, 10015, "Unknown Webhook"));
    }
    let Some(p) = st.interactions.values().find(|p: &&Pending| p.token == token) else {
        return Err(err(404, 10015, "Unknown Webhook"));
    };
    if p.created.elapsed() > st.config.token_lifetime {
        return Err(err(401, 50027, "Invalid Webhook Token"));
    }
    if p.acked.is_none() {
        // no response yet: the webhook does not exist
        return Err(err(404, 10015, "Unknown Webhook"));
    }
    Ok(p.id)
}

/// `/webhooks/{app}/{token}` (followups) and
/// `/webhooks/{app}/{token}/messages/{@original|id}`.
#[allow(clippy::too_many_arguments)]
fn webhook(
    st: &mut State,
    m: &str,
    app: &str,
    token: &str,
    msg: Option<&str>,
    body: &Value,
    files: Vec<Upload>,
) -> Response {
    let iid = match by_token(st, app, token) {
        Ok(i) => i,
        Err(r) => return r,
    };
    let (channel, original) = {
        let p = &st.interactions[&iid];
        (p.channel_id, p.original)
    };
    let Some(msg) = msg else {
        if m != "POST" {
            return err(405, 0, "405: Method Not Allowed");
        }
        if let Err(r) = validate(body, &files, true) {
            return r;
        }
        // the first followup after a deferred message edits the loading one
        if let Some(o) = original.filter(|o| st.messages.get(o).is_some_and(|r| r.flags & LOADING != 0)) {
            edit_message(st, o, body, files);
            return ok(payloads::message(st, &st.messages[&o]));
        }
        let flags = flags_of(body) & (EPHEMERAL | (1 << 2) | (1 << 12));
        let id = new_message(st, channel, body, files, flags, Some(iid));
        return ok(payloads::message(st, &st.messages[&id]));
    };
    let target = if msg == "@original" {
        original
    } else {
        msg.parse::<u64>().ok().filter(|id| st.messages.get(id).is_some_and(|r| r.interaction == Some(iid)))
    };
    let Some(id) = target.filter(|id| st.messages.get(id).is_some_and(|r| !r.deleted)) else {
        return err(404, 10008, "Unknown Message");
    };
    match m {
        "GET" => ok(payloads::message(st, &st.messages[&id])),
        "PATCH" => {
            if let Err(r) = validate(body, &files, false) {
                return r;
            }
            edit_message(st, id, body, files);
            ok(payloads::message(st, &st.messages[&id]))
        }
        _ => {
            if let Some(r) = st.messages.get_mut(&id) {
                r.deleted = true;
            }
            no_content()
        }
    }
}

/// `GET /channels/{id}`: a guild text channel or a DM channel.
fn get_channel(st: &mut State, id: &str) -> Response {
    let Ok(id) = id.parse::<u64>() else { return err(404, 10003, "Unknown Channel") };
    if let Some((g, pos)) = st.config.guild_of(id) {
        return ok(payloads::text_channel(Some(g.id), id, pos));
    }
    if let Some(u) = st.dm_user(id).and_then(|u| st.user(u)).cloned() {
        return ok(payloads::dm_channel(id, &u));
    }
    err(404, 10003, "Unknown Channel")
}

/// Whether the bot can post in a channel.
fn known_channel(st: &State, id: u64) -> bool {
    st.config.guild_of(id).is_some() || st.dm_user(id).is_some()
}

/// `GET /channels/{id}/messages`: newest first, `limit` (default 50).
fn list_messages(st: &mut State, req: &Request, id: &str) -> Response {
    let Some(ch) = id.parse::<u64>().ok().filter(|c| known_channel(st, *c)) else {
        return err(404, 10003, "Unknown Channel");
    };
    let limit = req.param("limit").and_then(|l| l.parse().ok()).unwrap_or(50usize).min(100);
    let list: Vec<Value> = st
        .messages
        .values()
        .rev()
        .filter(|m| m.channel_id == ch && !m.ephemeral() && !m.deleted)
        .take(limit)
        .map(|m| payloads::message(st, m))
        .collect();
    ok(Value::Array(list))
}

/// `POST /channels/{id}/messages` (Create Message).
fn create_message(st: &mut State, id: &str, body: &Value, files: Vec<Upload>) -> Response {
    let Some(ch) = id.parse::<u64>().ok().filter(|c| known_channel(st, *c)) else {
        return err(404, 10003, "Unknown Channel");
    };
    if let Err(r) = validate(body, &files, true) {
        return r;
    }
    // `nonce`: an integer or a string of at most 25 characters; with
    // `enforce_nonce`, "if another message was created by the same author
    // with the same nonce" in the past few minutes, "that message will be
    // returned and no new message will be created" (Create Message)
    let nonce = match &body["nonce"] {
        Value::String(s) if s.chars().count() > 25 => {
            return err(400, 50035, "Invalid Form Body (nonce: Must be 25 or fewer in length.)");
        }
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    };
    let enforce = body["enforce_nonce"].as_bool().unwrap_or(false);
    if enforce
        && let Some(n) = &nonce
        && let Some((mid, at)) = st.nonces.get(n).copied()
        && at.elapsed() < std::time::Duration::from_secs(5 * 60)
        && st.messages.contains_key(&mid)
    {
        st.nonce_repeats += 1;
        return ok(payloads::message(st, &st.messages[&mid]));
    }
    if let Some(u) = st.dm_user(ch)
        && st.config.closed_dms.contains(&u)
    {
        st.refused_dms.push((u, body.clone()));
        return err(403, 50007, "Cannot send messages to this user");
    }
    // only SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS, IS_COMPONENTS_V2 may be set
    let flags = flags_of(body) & ((1 << 2) | (1 << 12) | (1 << 15));
    let mid = new_message(st, ch, body, files, flags, None);
    if enforce && let Some(n) = nonce {
        st.nonces.insert(n, (mid, Instant::now()));
    }
    ok(payloads::message(st, &st.messages[&mid]))
}

/// `GET`, `PATCH` (Edit Message), `DELETE /channels/{id}/messages/{msg}`.
fn channel_message(st: &mut State, m: &str, id: &str, msg: &str, body: &Value, files: Vec<Upload>) -> Response {
    let Some(ch) = id.parse::<u64>().ok().filter(|c| known_channel(st, *c)) else {
        return err(404, 10003, "Unknown Channel");
    };
    let found = msg
        .parse::<u64>()
        .ok()
        .filter(|mid| st.messages.get(mid).is_some_and(|r| r.channel_id == ch && !r.deleted && !r.ephemeral()));
    let Some(mid) = found else { return err(404, 10008, "Unknown Message") };
    match m {
        "GET" => ok(payloads::message(st, &st.messages[&mid])),
        "PATCH" => {
            if let Err(r) = validate(body, &files, false) {
                return r;
            }
            edit_message(st, mid, body, files);
            ok(payloads::message(st, &st.messages[&mid]))
        }
        _ => {
            if let Some(r) = st.messages.get_mut(&mid) {
                r.deleted = true;
            }
            no_content()
        }
    }
}
