//! The agents' debug stream from the relay (its `--debug-port`), for a page opened with a
//! team's link (`#team=KEY`) or the operator's: what each agent of that team believed, shown
//! as its `.dcl` file would be ([`super::Agents::add_live`]).
//!
//! The page asks `GET /m/NAME/agents?from=SEQ&wait=MS` with the key as a bearer token
//! (book, "The agents' debug stream"): the relay answers as soon as the team's agents have
//! said something new (a long poll), so each cycle's messages arrive within milliseconds of
//! being sent. A key is remembered for this tab only (`sessionStorage`), as the operator's is.
//!
//! Why not the match's WebSocket: the relay writes the same bytes to every spectator of a
//! match in one pass, and a team's stream is for that team's pages only; a long poll keeps
//! the private stream apart from the shared one at the cost of one request per batch.

use super::Agents;
use crate::state::Monitor;
use leptos::prelude::*;
use pitchside_agents::Time;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The `sessionStorage` key a team's key is kept under.
pub const STORAGE_KEY: &str = "pitchside.team";
/// How long the relay may hold a poll waiting for messages.
const WAIT_MS: u32 = 20_000;
/// Between two polls when an answer came back empty at once (a relay that does not wait).
const POLL_MS: i32 = 250;
/// After an error the relay may recover from (it restarted, the network went).
const RETRY_MS: i32 = 2000;

/// The answer's version this page reads.
const VERSION: u64 = 1;

#[derive(serde::Deserialize)]
struct Answer {
    v: u64,
    number: u32,
    next: u64,
    more: bool,
    messages: Vec<Message>,
}

#[derive(serde::Deserialize)]
struct Message {
    team: String,
    unum: Option<u8>,
    cycle: u32,
    stopped: u32,
    text: String,
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok()?
}

/// The key this page reads with: a team's from the address or this tab's memory, else the
/// operator's (which opens both teams' streams).
fn key() -> Option<String> {
    let from_address = crate::link::team_key().filter(|k| !k.is_empty());
    if let (Some(k), Some(s)) = (&from_address, storage()) {
        let _ = s.set_item(STORAGE_KEY, k);
    }
    from_address
        .or_else(|| storage()?.get_item(STORAGE_KEY).ok()?)
        .or_else(|| crate::link::control_key().filter(|k| !k.is_empty()))
        .or_else(|| storage()?.get_item(crate::operator::STORAGE_KEY).ok()?)
}

/// `GET` of the stream from `from`: the status and the body.
async fn get(name: &str, key: &str, from: u64) -> Option<(u16, String)> {
    let init = web_sys::RequestInit::new();
    init.set_method("GET");
    let headers = web_sys::Headers::new().ok()?;
    headers
        .set("Authorization", &format!("Bearer {key}"))
        .ok()?;
    init.set_headers(&headers);
    let url = format!("/m/{name}/agents?from={from}&wait={WAIT_MS}");
    let req = web_sys::Request::new_with_str_and_init(&url, &init).ok()?;
    let res = JsFuture::from(web_sys::window()?.fetch_with_request(&req))
        .await
        .ok()?;
    let res: web_sys::Response = res.dyn_into().ok()?;
    let text = JsFuture::from(res.text().ok()?)
        .await
        .ok()?
        .as_string()
        .unwrap_or_default();
    Some((res.status(), text))
}

/// Follows the relay's debug stream of the live match, if the page has a key for it.
pub fn start(m: Monitor) {
    let Some(key) = key() else { return };
    let agents = m.agents;
    leptos::task::spawn_local(async move {
        let Some(name) = crate::ui::operator::match_name().await else {
            return;
        };
        follow(agents, &name, &key).await;
    });
}

async fn follow(agents: Agents, name: &str, key: &str) {
    let mut from = 0;
    let mut number = None;
    loop {
        let asked = crate::source::now();
        let Some((status, body)) = get(name, key, from).await else {
            let _ = super::sleep(RETRY_MS).await;
            continue;
        };
        match status {
            200 => {}
            // The relay is not this match's debug server: nothing to follow.
            404 => return,
            401 => {
                if let Some(s) = storage() {
                    let _ = s.remove_item(STORAGE_KEY);
                }
                agents.problems.update(|p| {
                    p.push("This team link is not (or no longer) this relay's: ask the organiser for the link the relay printed at its last start.".into())
                });
                return;
            }
            _ => {
                let _ = super::sleep(RETRY_MS).await;
                continue;
            }
        }
        let answer = match serde_json::from_str::<Answer>(&body) {
            Ok(a) if a.v == VERSION => a,
            _ => {
                agents.problems.update(|p| {
                    p.push("The relay's agents' debug stream is in a form this page does not read: reload the page.".into())
                });
                return;
            }
        };
        if answer.next < from {
            // The relay started over (its numbering with it): so does the page.
            agents.drop_live();
            from = 0;
            number = None;
            continue;
        }
        if number != Some(answer.number) {
            // Another match: the old one's streams go.
            if number.is_some() {
                agents.drop_live();
            }
            number = Some(answer.number);
        }
        let got = !answer.messages.is_empty();
        for msg in answer.messages {
            let time = Time {
                cycle: msg.cycle,
                stopped: msg.stopped,
            };
            agents.add_live(&msg.team, msg.unum, time, Rc::from(msg.text.as_str()));
        }
        if got {
            agents.loaded.update(|n| *n += 1);
        }
        from = answer.next;
        if !got && !answer.more && crate::source::now() - asked < f64::from(POLL_MS) {
            // Empty at once: the relay did not wait. Do not ask again in a tight loop.
            let _ = super::sleep(POLL_MS).await;
        }
    }
}
