//! The relay's WebSocket feed: binary messages are server datagrams, decoded here with the
//! same parser the relay uses; text messages are [`Notice`]s. Reconnects after a drop.

use crate::{Mode, Monitor};
use leptos::prelude::*;
use pitchside_shared::datagram::{parse_datagram, Datagram};
use pitchside_shared::feed::{FeedSource, Notice};
use pitchside_shared::Record;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{BinaryType, MessageEvent, WebSocket};

thread_local! {
    static SOCKET: RefCell<Option<WebSocket>> = const { RefCell::new(None) };
}

fn url() -> Option<String> {
    let loc = web_sys::window()?.location();
    let scheme = if loc.protocol().ok()? == "https:" {
        "wss"
    } else {
        "ws"
    };
    Some(format!("{scheme}://{}/ws", loc.host().ok()?))
}

/// Opens the feed (closing any previous one).
pub fn connect(m: Monitor) {
    SOCKET.with(|s| {
        if let Some(old) = s.borrow_mut().take() {
            old.set_onclose(None);
            let _ = old.close();
        }
    });
    let Some(url) = url() else { return };
    let ws = match WebSocket::new(&url) {
        Ok(ws) => ws,
        Err(_) => {
            m.source.set(format!("cannot open {url}"));
            return;
        }
    };
    ws.set_binary_type(BinaryType::Arraybuffer);

    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
        if m.mode.get_untracked() != Mode::Live {
            return;
        }
        let data = ev.data();
        if let Some(text) = data.as_string() {
            match Notice::from_json(&text) {
                Some(Notice::Feed { source, label }) => m.source.set(describe(source, &label)),
                Some(Notice::Reset) => m.clear(),
                None => {}
            }
        } else if let Ok(buf) = data.dyn_into::<js_sys::ArrayBuffer>() {
            let bytes = js_sys::Uint8Array::new(&buf).to_vec();
            match parse_datagram(&bytes) {
                Ok(Datagram::Records(records)) => {
                    for r in records {
                        match r {
                            Record::Show(f) => m.push_frame(f),
                            Record::ServerParam(p) => {
                                if let Some(g) = p.get_f64("goal_width") {
                                    m.goal_width.set(g);
                                }
                            }
                            _ => {}
                        }
                    }
                }
                Ok(Datagram::ServerError(_)) => {}
                Err(e) => web_sys::console::warn_1(
                    &format!("ignoring a frame the relay sent: {e}").into(),
                ),
            }
        }
    });
    ws.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();

    let on_close = Closure::<dyn FnMut()>::new(move || {
        if m.mode.get_untracked() == Mode::Live {
            m.source.set("relay connection lost, reconnecting…".into());
        }
        // Retry after a second; the relay sends the match history again on connect.
        let retry = Closure::once_into_js(move || {
            m.clear();
            connect(m);
        });
        if let Some(w) = web_sys::window() {
            let _ = w
                .set_timeout_with_callback_and_timeout_and_arguments_0(retry.unchecked_ref(), 1000);
        }
    });
    ws.set_onclose(Some(on_close.as_ref().unchecked_ref()));
    on_close.forget();

    SOCKET.with(|s| *s.borrow_mut() = Some(ws));
}

/// Leaves an opened file and shows the relay's feed again from its start.
pub fn resume(m: Monitor) {
    m.playing.set(false);
    m.mode.set(Mode::Live);
    m.follow.set(true);
    m.error.set(None);
    m.progress.set(None);
    m.clear();
    connect(m);
}

fn describe(source: FeedSource, label: &str) -> String {
    match source {
        FeedSource::Live => format!("Live: {label}"),
        FeedSource::Replay => format!("Replay (no live server): {label}"),
        FeedSource::Waiting => format!("Waiting: {label}"),
    }
}
