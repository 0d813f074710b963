//! `pitchside-relay`: command line in, [`relay::run`] out.

use anyhow::{bail, Context};
use relay::{monitor::MonitorConfig, replay::Script, Config, Source};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

const USAGE: &str = "\
pitchside-relay: a browser monitor for rcssserver

USAGE: pitchside-relay [--listen ADDR] [--server HOST:PORT | --replay FILE] [--dist DIR]

  --listen ADDR      where browsers connect (default 127.0.0.1:8080)
  --server HOST:PORT register with this rcssserver as a monitor (e.g. 127.0.0.1:6000)
  --replay FILE      play this .rcg/.rcg.gz as if live, looping
  --speed X          replay speed factor (default 1 = 10 cycles per second)
  --dist DIR         the built web app (default: dist)

With neither --server nor --replay, a bundled real game is replayed.";

fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .init();
    let mut listen: SocketAddr = "127.0.0.1:8080".parse()?;
    let mut server: Option<String> = None;
    let mut replay: Option<PathBuf> = None;
    let mut dist = PathBuf::from("dist");
    let mut speed = 1.0f64;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| {
            args.next()
                .with_context(|| format!("{name} needs a value\n\n{USAGE}"))
        };
        match arg.as_str() {
            "--listen" => {
                listen = value("--listen")?
                    .parse()
                    .context("--listen wants ADDR:PORT")?
            }
            "--server" => server = Some(value("--server")?),
            "--replay" => replay = Some(value("--replay")?.into()),
            "--dist" => dist = value("--dist")?.into(),
            "--speed" => {
                speed = value("--speed")?
                    .parse()
                    .context("--speed wants a number")?
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            other => bail!("unknown argument {other:?}\n\n{USAGE}"),
        }
    }
    if !(speed > 0.0 && speed <= 1000.0) {
        bail!("--speed must be between 0 and 1000");
    }
    let step = Duration::from_secs_f64(0.1 / speed);
    let source = match (server, replay) {
        (Some(_), Some(_)) => bail!("give either --server or --replay, not both"),
        (Some(s), None) => {
            let addr = std::net::ToSocketAddrs::to_socket_addrs(&s)
                .with_context(|| format!("cannot resolve {s}"))?
                .next()
                .with_context(|| format!("{s} resolves to no address"))?;
            Source::Server(MonitorConfig::new(addr))
        }
        (None, Some(path)) => {
            let bytes =
                std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
            let name = path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            Source::Replay {
                script: Script::from_log(&name, &bytes)?,
                step,
            }
        }
        (None, None) => Source::Replay {
            script: Script::from_log(relay::replay::BUNDLED_NAME, relay::replay::BUNDLED_LOG)?,
            step,
        },
    };
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(listen)
            .await
            .with_context(|| format!("cannot listen on {listen}"))?;
        tracing::info!("pitchside monitor at http://{}", listener.local_addr()?);
        relay::run(listener, Config { source, dist }, async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
    })
}
