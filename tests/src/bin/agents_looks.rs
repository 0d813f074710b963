//! How often the Agents panel shows each agent's latest lines while a team developer follows
//! a live match: opens a team's link of a running relay (one that is the agents' debug server,
//! with real agents sending to it) in headless Chromium, and reads the panel every `--every`
//! milliseconds, `--looks` times, as a glance would.
//!
//! ```sh
//! scripts/build-web.sh
//! cargo run --release -p pitchside-tests --bin agents-looks -- 'http://127.0.0.1:8080/m/NAME#team=KEY' [--looks 120] [--every 500] [--agents 11]
//! ```
//! A look counts when the page follows the live match and the panel has a line from at least
//! `--agents` agents (a team's 11 players; its coach sends world models without a `message`
//! line). It prints each share, and how many lines were of the cycle on screen or, said so, of
//! an earlier one.

use pitchside_tests::agent_looks::look;
use pitchside_tests::browser::Browser;
use std::time::Duration;

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let url = args
        .next()
        .expect("a team link: http://HOST:PORT/m/NAME#team=KEY");
    let (mut looks, mut every, mut agents) = (120usize, 500u64, 11usize);
    while let Some(a) = args.next() {
        let v = args
            .next()
            .and_then(|v| v.parse::<u64>().ok())
            .expect("a number");
        match a.as_str() {
            "--looks" => looks = v as usize,
            "--every" => every = v,
            "--agents" => agents = v as usize,
            _ => panic!("unknown option {a}"),
        }
    }
    let b = Browser::start().await;
    b.goto(&url).await;
    b.wait_js(
        "return !!document.querySelector('#agent-panel')",
        "the agent panel (the stream arrived)",
        |v| v == &serde_json::Value::Bool(true),
    )
    .await;
    let (mut live, mut full, mut some) = (0, 0, 0);
    let (mut current, mut earlier) = (0, 0);
    let mut worst = usize::MAX;
    for i in 0..looks {
        tokio::time::sleep(Duration::from_millis(every)).await;
        let l = look(&b).await;
        if !l.live {
            continue;
        }
        live += 1;
        let n = l.agents().len();
        worst = worst.min(n);
        if n >= agents {
            full += 1;
        }
        if n > 0 {
            some += 1;
        }
        let (c, e) = l.split();
        current += c;
        earlier += e;
        if i == looks / 2 {
            b.screenshot("agents-looks").await;
        }
    }
    let pct = |n: usize| 100.0 * n as f64 / live.max(1) as f64;
    println!("looks at the live edge        {live} of {looks} (every {every} ms)");
    println!(
        "every agent's lines ({agents}+)     {full} ({:.1} %)",
        pct(full)
    );
    println!("some agent's lines            {some} ({:.1} %)", pct(some));
    println!(
        "fewest agents in a look       {}",
        if live > 0 { worst } else { 0 }
    );
    println!("lines of the cycle on screen  {current}; of an earlier cycle (said so) {earlier}");
    b.close().await;
}
