//! The operator's panel and referee mode (issue 11), for the page opened with the relay's
//! operator link only: spectators never see any of it.
//!
//! - The key is taken out of the address at start ([`crate::operator::take_control`]), kept
//!   in `sessionStorage`, and checked with the relay (`GET /m/NAME/control`); the panel shows
//!   only when the relay accepts it.
//! - Referee mode is a toggle. Outside it the field does what it always does; in it a layer
//!   over the field takes the pointer: a click on a player selects him for a card or a
//!   discard (cards ask for confirmation), dragging a player moves him (hold Shift while
//!   dragging to turn him instead: he faces the pointer), and a right-click (a long press on
//!   touch) opens "drop ball / free kick left / free kick right here".
//! - The kick-off button is enabled only when the server would act on it; Ctrl+K presses it
//!   (as in rcssmonitor).
//! - Each action is listed with what was sent and what followed: the relay's refusal, the
//!   server's `(error …)`, or the effect seen in the next frames.

use crate::operator::{self as op, Action};
use crate::state::Monitor;
use crate::ui::drawn as canvas;
use leptos::prelude::*;
use rcss_formats::Side;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Frames to watch for an action's effect before saying none was seen.
const WATCH_FRAMES: usize = 50;
/// Long press on touch that opens the menu, in ms.
const LONG_PRESS_MS: i32 = 600;
/// A press on a player that moves less than this (CSS pixels) is a click that selects him,
/// not a drag that moves him.
const DRAG_SLOP_PX: f64 = 4.0;

/// What the relay said about the key (`GET /m/NAME/control`).
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
pub struct Status {
    #[serde(rename = "match")]
    pub name: String,
    pub live: bool,
    pub coach: bool,
    pub kickoff: bool,
}

/// One action in the panel's list.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub id: u32,
    pub label: String,
    /// The command the relay sent, once it answered.
    pub sent: Option<String>,
    /// What followed: the relay's refusal, the server's answer, the effect seen, or nothing.
    pub outcome: String,
    pub ok: Option<bool>,
    /// While the effect is watched for: the action, and the frame count when it was sent.
    watch: Option<(Action, usize)>,
}

/// A menu on the pitch at a field point, shown at a canvas point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Menu {
    pub field: (f64, f64),
    pub at: (f64, f64),
}

/// A player being dragged: who, where he is dropped (field) and which way he faces.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Drag {
    who: (Side, u8),
    start: (f64, f64),
    to: (f64, f64),
    deg: f32,
    moved: bool,
    turning: bool,
}

/// The operator's state, provided as context beside the [`Monitor`].
#[derive(Clone, Copy)]
pub struct Operator {
    token: StoredValue<Option<String>>,
    pub status: RwSignal<Option<Status>>,
    /// Why a key from the address was not taken (a wrong or stale link), said in place of
    /// the panel.
    pub refused: RwSignal<Option<String>>,
    pub referee: RwSignal<bool>,
    pub log: RwSignal<Vec<Entry>>,
    pub confirm: RwSignal<Option<Action>>,
    pub menu: RwSignal<Option<Menu>>,
    drag: RwSignal<Option<Drag>>,
    next_id: StoredValue<u32>,
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok()?
}

/// The match this page is for: its path's, or the relay's first.
pub(crate) async fn match_name() -> Option<String> {
    match crate::source::live::match_name() {
        Some(n) => Some(n),
        None => super::lobby::fetch_matches()
            .await?
            .into_iter()
            .next()
            .map(|c| c.name),
    }
}

/// `method` on `/m/NAME/control` with the key: the status and the body.
async fn request(method: &str, token: &str, body: Option<String>) -> Option<(u16, String)> {
    let name = match_name().await?;
    crate::api::send(method, &format!("/m/{name}/control"), token, body).await
}

/// Reads the key the page was opened with ([`crate::link`] keeps it out of the address and of
/// copied links), remembers it for this tab, and asks the relay whether it is right. Returns
/// the operator's state, provided as context.
pub fn start(m: Monitor) -> Operator {
    let from_address = crate::link::control_key().filter(|k| !k.is_empty());
    if let (Some(t), Some(s)) = (&from_address, storage()) {
        let _ = s.set_item(op::STORAGE_KEY, t);
    }
    let token = from_address.or_else(|| storage()?.get_item(op::STORAGE_KEY).ok()?);
    let o = Operator {
        token: StoredValue::new(token.clone()),
        status: RwSignal::new(None),
        refused: RwSignal::new(None),
        referee: RwSignal::new(false),
        log: RwSignal::new(Vec::new()),
        confirm: RwSignal::new(None),
        menu: RwSignal::new(None),
        drag: RwSignal::new(None),
        next_id: StoredValue::new(0),
    };
    provide_context(o);
    let Some(token) = token else { return o };
    leptos::task::spawn_local(async move {
        match request("GET", &token, None).await {
            Some((200, body)) => {
                if let Ok(s) = serde_json::from_str::<Status>(&body) {
                    o.status.set(Some(s));
                }
            }
            Some((401, _)) => {
                // Not this relay's key (it restarted with a new one): forget it.
                if let Some(s) = storage() {
                    let _ = s.remove_item(op::STORAGE_KEY);
                }
                o.refused.set(Some(
                    "This operator link is not (or no longer) this relay's: open the link the relay printed at its last start.".into(),
                ));
            }
            Some((status, body)) => {
                let why = serde_json::from_str::<serde_json::Value>(&body)
                    .ok()
                    .and_then(|j| j.get("error")?.as_str().map(str::to_owned))
                    .unwrap_or_default();
                o.refused.set(Some(format!(
                    "The relay did not take this operator link ({status}): {why}"
                )));
            }
            None => {}
        }
    });
    watch_effects(m, o);
    ctrl_k(m, o);
    o
}

/// Whether the frame on screen is one where the server would act on a kick-off.
fn kick_off_now(m: Monitor) -> bool {
    m.count.track();
    let i = m.count.get_untracked().saturating_sub(1);
    m.game
        .with_value(|g| g.frames.get(i).map(|f| op::kick_off_offered(g, f)))
        .unwrap_or(false)
}

impl Operator {
    /// Sends an action and lists it with what follows.
    pub fn send(self, m: Monitor, action: Action) {
        let Some(token) = self.token.get_value() else {
            return;
        };
        let id = self.next_id.get_value();
        self.next_id.set_value(id + 1);
        let label = action.label();
        self.log.update(|l| {
            l.insert(
                0,
                Entry {
                    id,
                    label,
                    sent: None,
                    outcome: "sending…".into(),
                    ok: None,
                    watch: None,
                },
            );
            l.truncate(30);
        });
        let body = action.json();
        // The frame before the command went: the relay answers only after the server had a
        // moment to reply, and frames arrive meanwhile.
        let frames = m.count.get_untracked();
        leptos::task::spawn_local(async move {
            let res = request("POST", &token, Some(body)).await;
            self.log.update(|l| {
                let Some(e) = l.iter_mut().find(|e| e.id == id) else {
                    return;
                };
                let json = res
                    .as_ref()
                    .and_then(|(_, b)| serde_json::from_str::<serde_json::Value>(b).ok());
                let field = |k: &str| {
                    json.as_ref()
                        .and_then(|j| j.get(k))
                        .and_then(|v| v.as_str())
                        .map(str::to_owned)
                };
                match &res {
                    Some((200, _)) => {
                        e.sent = field("sent");
                        match field("answer") {
                            Some(a) if a.starts_with("(error") => {
                                e.outcome = format!("rcssserver refused it: {a}");
                                e.ok = Some(false);
                            }
                            Some(a) => {
                                e.outcome = format!("rcssserver: {a}");
                                e.ok = Some(true);
                            }
                            None => {
                                e.outcome = "sent; watching the next frames…".into();
                                e.watch = Some((action, frames));
                            }
                        }
                    }
                    Some((status, _)) => {
                        e.outcome = format!(
                            "refused by the relay ({status}): {}",
                            field("error").unwrap_or_default()
                        );
                        e.ok = Some(false);
                    }
                    None => {
                        e.outcome = "the relay could not be reached".into();
                        e.ok = Some(false);
                    }
                }
            });
        });
    }
}

/// Looks at new frames for the effect of every action still watched.
fn watch_effects(m: Monitor, o: Operator) {
    Effect::new(move |_| {
        let count = m.count.get();
        let watched = o
            .log
            .with_untracked(|l| l.iter().any(|e| e.watch.is_some()));
        if !watched {
            return;
        }
        o.log.update(|l| {
            for e in l.iter_mut() {
                let Some((action, from)) = e.watch.clone() else {
                    continue;
                };
                let seen = m.game.with_value(|g| {
                    let before = g.frames.get(from.checked_sub(1)?)?;
                    g.frames
                        .get(from..)?
                        .iter()
                        .find_map(|f| action.seen(before, f))
                });
                if let Some(s) = seen {
                    e.outcome = format!("seen: {s}");
                    e.ok = Some(true);
                    e.watch = None;
                } else if count >= from + WATCH_FRAMES {
                    e.outcome = format!("no change seen in the next {WATCH_FRAMES} frames");
                    e.ok = Some(false);
                    e.watch = None;
                }
            }
        });
    });
}

/// Ctrl+K kicks off, as in rcssmonitor.
fn ctrl_k(m: Monitor, o: Operator) {
    let handle = window_event_listener(leptos::ev::keydown, move |ev| {
        if !(ev.ctrl_key() || ev.meta_key()) || !ev.key().eq_ignore_ascii_case("k") {
            return;
        }
        if o.status.get_untracked().is_none() {
            return;
        }
        ev.prevent_default();
        o.send(m, Action::KickOff);
    });
    on_cleanup(move || handle.remove());
}

fn side_word(s: Side) -> &'static str {
    match s {
        Side::Left => "left",
        Side::Right => "right",
    }
}

/// The panel: referee mode, kick-off, the selected player's cards, the actions' list.
#[component]
pub fn OperatorPanel() -> impl IntoView {
    let m = expect_context::<Monitor>();
    let o = expect_context::<Operator>();
    let offered = Memo::new(move |_| kick_off_now(m));
    let card = move |red: bool| {
        if let Some((side, unum)) = m.field.selected.get_untracked() {
            o.confirm.set(Some(Action::Card { side, unum, red }));
        }
    };
    let discard = move || {
        if let Some((side, unum)) = m.field.selected.get_untracked() {
            o.confirm.set(Some(Action::Discard { side, unum }));
        }
    };
    let refused = move || {
        o.refused.get().map(|text| {
            view! { <p class="operator-refused" id="operator-refused">{text}</p> }
        })
    };
    let panel = move || {
        o.status.get().map(|s| {
            view! {
                <section class="panel operator" id="operator">
                    <h2>"Referee"</h2>
                    <div class="operator-row">
                        <button
                            id="referee-mode"
                            class:active=move || o.referee.get()
                            aria-pressed=move || o.referee.get().to_string()
                            on:click=move |_| {
                                o.referee.update(|r| *r = !*r);
                                o.menu.set(None);
                                o.confirm.set(None);
                            }
                        >
                            {move || if o.referee.get() { "Referee mode: on" } else { "Referee mode: off" }}
                        </button>
                        <button
                            id="kickoff"
                            title="Kick off (Ctrl+K): only before kick-off, at half time and before extra time"
                            prop:disabled=move || !offered.get()
                            on:click=move |_| o.send(m, Action::KickOff)
                        >
                            "Kick off"
                        </button>
                    </div>
                    <p class="operator-hint">
                        {move || if o.referee.get() {
                            "Click a player to card him; drag a player to move him (Shift: turn him); right-click or long-press the pitch for a drop ball or free kick."
                        } else {
                            "Turn referee mode on to act on the field; outside it the field selects, pans and zooms."
                        }}
                        {(!s.live).then_some(" This match is a replay: the relay refuses commands.")}
                    </p>
                    {move || o.referee.get().then(|| {
                        m.field.selected.get().map(|(side, unum)| view! {
                            <div class="operator-row" id="player-actions">
                                <span class="who">{format!("{} {unum}", side_word(side))}</span>
                                <button id="card-yellow" class="yellow" on:click=move |_| card(false)>"Yellow card"</button>
                                <button id="card-red" class="red" on:click=move |_| card(true)>"Red card"</button>
                                <button id="discard" on:click=move |_| discard()>"Discard"</button>
                            </div>
                        })
                    })}
                    {move || o.referee.get().then(|| view! { <PointActions/> })}
                    {move || o.confirm.get().map(|a| {
                        let label = a.label();
                        view! {
                            <div class="operator-row confirm" id="confirm">
                                <span>{format!("Give {label}?")}</span>
                                <button id="confirm-yes" on:click=move |_| {
                                    if let Some(a) = o.confirm.get_untracked() {
                                        o.send(m, a);
                                    }
                                    o.confirm.set(None);
                                }>"Confirm"</button>
                                <button id="confirm-no" on:click=move |_| o.confirm.set(None)>"Cancel"</button>
                            </div>
                        }
                    })}
                    <ol class="operator-log" id="operator-log">
                        <For
                            each=move || o.log.get()
                            key=|e| (e.id, e.outcome.clone(), e.sent.clone())
                            children=move |e| view! {
                                <li class:ok=e.ok == Some(true) class:failed=e.ok == Some(false)>
                                    <b>{e.label.clone()}</b>
                                    {e.sent.clone().map(|s| view! { " " <code class="sent">{s}</code> })}
                                    <span class="outcome">{format!(" — {}", e.outcome)}</span>
                                </li>
                            }
                        />
                    </ol>
                </section>
            }
        })
    };
    view! { {refused} {panel} }
}

/// The keyboard's way to the commands given by a point on the field (a drop ball, a free
/// kick, moving the selected player): the point typed in metres, as the server counts them
/// (x towards the right goal, y down; the same whichever side the field is viewed from).
#[component]
fn PointActions() -> impl IntoView {
    let m = expect_context::<Monitor>();
    let o = expect_context::<Operator>();
    let x = RwSignal::new("0".to_owned());
    let y = RwSignal::new("0".to_owned());
    let point = move || -> Option<(f32, f32)> {
        let x: f32 = x.get_untracked().trim().parse().ok()?;
        let y: f32 = y.get_untracked().trim().parse().ok()?;
        (x.is_finite() && y.is_finite()).then_some((x, y))
    };
    let act = move |make: fn(f32, f32) -> Action| {
        move |_| {
            if let Some((x, y)) = point() {
                o.send(m, make(x, y));
            }
        }
    };
    let move_here = move |_| {
        if let (Some((px, py)), Some((side, unum))) = (point(), m.field.selected.get_untracked()) {
            o.send(
                m,
                Action::Move {
                    side,
                    unum,
                    x: px,
                    y: py,
                    deg: 0.0,
                },
            );
        }
    };
    let number = move |id: &'static str, label: &'static str, sig: RwSignal<String>| {
        view! {
            <label>
                {label}
                <input id=id type="number" step="0.5" inputmode="decimal" size="5"
                    prop:value=move || sig.get()
                    on:input=move |ev| sig.set(event_target_value(&ev))/>
            </label>
        }
    };
    view! {
        <div class="operator-row" id="point-actions" role="group" aria-label="At a point of the field">
            {number("op-x", "x ", x)}
            {number("op-y", " y ", y)}
            " m "
            <button id="op-drop" on:click=act(|x, y| Action::DropBall { x, y })>"Drop ball"</button>
            <button id="op-fk-l" on:click=act(|x, y| Action::FreeKick { side: Side::Left, x, y })>"Free kick left"</button>
            <button id="op-fk-r" on:click=act(|x, y| Action::FreeKick { side: Side::Right, x, y })>"Free kick right"</button>
            {move || m.field.selected.get().map(|(side, unum)| view! {
                <button id="op-move" on:click=move_here>{format!("Move {} {unum} here", side_word(side))}</button>
            })}
        </div>
    }
}

/// The canvas point of a pointer event, relative to `el`.
fn local(el: &web_sys::Element, x: i32, y: i32) -> (f64, f64) {
    let r = el.get_bounding_client_rect();
    (f64::from(x) - r.left(), f64::from(y) - r.top())
}

/// The layer over the field in referee mode. It takes the pointer there, so the field's own
/// gestures (select by click, pan by drag) rest until referee mode is off; the wheel still
/// zooms and the field's buttons stay on top. A click selects a player as the field does
/// (the same selection: the player panel follows it), so the panel can card him.
#[component]
pub fn RefereeLayer() -> impl IntoView {
    let m = expect_context::<Monitor>();
    let o = expect_context::<Operator>();
    let layer = NodeRef::<leptos::html::Div>::new();
    let press_timer = StoredValue::new(None::<i32>);
    let clear_press = move || {
        if let (Some(id), Some(w)) = (press_timer.get_value(), web_sys::window()) {
            w.clear_timeout_with_handle(id);
        }
        press_timer.set_value(None);
    };
    let body_of = move |who: (Side, u8)| {
        let i = m.index.get_untracked();
        m.with_frame(i, |f| {
            f.players
                .iter()
                .find(|p| p.side == Some(who.0) && p.unum == who.1)
                .map(|p| p.body)
        })
        .flatten()
        .unwrap_or(0.0)
    };
    let at_of = move |x: i32, y: i32| {
        layer
            .get_untracked()
            .map(|el| local(el.as_ref(), x, y))
            .unwrap_or_default()
    };

    let on_down = move |ev: web_sys::PointerEvent| {
        let at = at_of(ev.client_x(), ev.client_y());
        o.menu.set(None);
        if ev.button() != 0 {
            return; // a right-click opens the menu (contextmenu follows)
        }
        let Some((field, _)) = canvas::field_at(at) else {
            return;
        };
        match canvas::player_under(at) {
            Some(who) => {
                if let Some(el) = layer.get_untracked() {
                    let el: &web_sys::Element = el.as_ref();
                    let _ = el.set_pointer_capture(ev.pointer_id());
                }
                o.drag.set(Some(Drag {
                    who,
                    start: field,
                    to: field,
                    deg: body_of(who),
                    moved: false,
                    turning: false,
                }));
            }
            None if ev.pointer_type() != "mouse" => {
                // A long press on the pitch opens the menu, as a right-click does.
                let open = Closure::once_into_js(move || {
                    press_timer.set_value(None);
                    if op::on_pitch_or_near(field.0, field.1) {
                        o.menu.set(Some(Menu { field, at }));
                    }
                });
                if let Some(w) = web_sys::window() {
                    if let Ok(id) = w.set_timeout_with_callback_and_timeout_and_arguments_0(
                        open.unchecked_ref(),
                        LONG_PRESS_MS,
                    ) {
                        press_timer.set_value(Some(id));
                    }
                }
            }
            None => m.field.selected.set(None),
        }
    };
    let on_move = move |ev: web_sys::PointerEvent| {
        let at = at_of(ev.client_x(), ev.client_y());
        let Some(mut d) = o.drag.get_untracked() else {
            clear_press();
            return;
        };
        let Some(((x, y), per_px)) = canvas::field_at(at) else {
            return;
        };
        let far = (x - d.start.0).hypot(y - d.start.1) > DRAG_SLOP_PX * per_px;
        if ev.shift_key() && (d.moved || far) {
            // Turning: he stays where he was dropped and faces the pointer.
            d.turning = true;
            d.deg = op::facing(d.to.0, d.to.1, x, y);
            d.moved = true;
        } else if far || d.moved {
            d.turning = false;
            d.moved = true;
            d.to = (x, y);
        }
        o.drag.set(Some(d));
    };
    let on_up = move |ev: web_sys::PointerEvent| {
        clear_press();
        let Some(d) = o.drag.get_untracked() else {
            return;
        };
        o.drag.set(None);
        if let Some(el) = layer.get_untracked() {
            let el: &web_sys::Element = el.as_ref();
            let _ = el.release_pointer_capture(ev.pointer_id());
        }
        if !d.moved {
            m.field.selected.set(Some(d.who));
            return;
        }
        let (x, y) = d.to;
        if !op::on_pitch_or_near(x, y) {
            return;
        }
        o.send(
            m,
            Action::Move {
                side: d.who.0,
                unum: d.who.1,
                x: x as f32,
                y: y as f32,
                deg: d.deg,
            },
        );
    };
    let on_cancel = move |_: web_sys::PointerEvent| {
        clear_press();
        o.drag.set(None);
    };
    let on_menu = move |ev: web_sys::MouseEvent| {
        ev.prevent_default();
        let at = at_of(ev.client_x(), ev.client_y());
        if let Some((field, _)) = canvas::field_at(at) {
            if op::on_pitch_or_near(field.0, field.1) {
                o.menu.set(Some(Menu { field, at }));
            }
        }
    };
    let on_wheel = move |ev: web_sys::WheelEvent| {
        ev.prevent_default();
        o.menu.set(None);
        let at = at_of(ev.client_x(), ev.client_y());
        canvas::wheel_zoom(m, at, &ev);
    };
    let pick = move |kind: u8| {
        let Some(menu) = o.menu.get_untracked() else {
            return;
        };
        o.menu.set(None);
        let (x, y) = (menu.field.0 as f32, menu.field.1 as f32);
        let a = match kind {
            0 => Action::DropBall { x, y },
            1 => Action::FreeKick {
                side: Side::Left,
                x,
                y,
            },
            _ => Action::FreeKick {
                side: Side::Right,
                x,
                y,
            },
        };
        o.send(m, a);
    };

    // The dragged player where he would go, facing where he would face.
    let ghost = move || {
        let d = o.drag.get().filter(|d| d.moved)?;
        let (px, py) = canvas::canvas_at(d.to)?;
        let deg = canvas::canvas_degrees(f64::from(d.deg));
        Some(view! {
            <div
                class="ghost"
                style=format!("left:{px:.1}px;top:{py:.1}px;--deg:{deg:.0}deg")
                title=format!("{} {}", side_word(d.who.0), d.who.1)
            >
                <span class="facing"></span>
            </div>
        })
    };
    let menu = move || {
        o.menu.get().map(|mn| {
            view! {
                <div
                    class="pitch-menu"
                    id="pitch-menu"
                    style=format!("left:{:.0}px;top:{:.0}px", mn.at.0, mn.at.1)
                    on:pointerdown=|ev: web_sys::PointerEvent| ev.stop_propagation()
                >
                    <div class="where">{format!("({:.1}, {:.1})", mn.field.0, mn.field.1)}</div>
                    <button id="menu-drop-ball" on:click=move |_| pick(0)>"Drop ball here"</button>
                    <button id="menu-free-kick-l" on:click=move |_| pick(1)>"Free kick left here"</button>
                    <button id="menu-free-kick-r" on:click=move |_| pick(2)>"Free kick right here"</button>
                </div>
            }
        })
    };
    move || {
        (o.referee.get() && o.status.get().is_some()).then(|| {
            view! {
                <div
                    class="referee-layer"
                    id="referee-layer"
                    node_ref=layer
                    on:pointerdown=on_down
                    on:pointermove=on_move
                    on:pointerup=on_up
                    on:pointercancel=on_cancel
                    on:contextmenu=on_menu
                    on:wheel=on_wheel
                >
                    {ghost}
                    {menu}
                </div>
            }
        })
    }
}
