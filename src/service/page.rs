//! The page at `GET /` (`serve --no-page` turns it off): plain HTML, CSS and JavaScript in
//! `src/service/page/`, embedded in the binary (no CDN, no build step, works offline). It
//! calls the JSON API (`connect.rs`) like any client. `/rules` shows the rule texts the
//! explanations cite, from the committed copies in `docs/rules/` (the project's rule book,
//! `systems.md`, and its FIDE summary, `fide.md`): served here rather than linked to the FIDE
//! Handbook so that the links work offline and reach the project's ids (`AM-3.3`, `CG-8`),
//! which only the project's own text defines.

/// One file of the page.
#[derive(Debug)]
pub struct Asset {
    pub path: &'static str,
    pub content_type: &'static str,
    pub body: &'static [u8],
}

const ASSETS: &[Asset] = &[
    Asset {
        path: "/",
        content_type: "text/html; charset=utf-8",
        body: include_bytes!("page/index.html"),
    },
    Asset {
        path: "/app.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("page/app.js"),
    },
    Asset {
        path: "/app.css",
        content_type: "text/css; charset=utf-8",
        body: include_bytes!("page/app.css"),
    },
    Asset {
        path: "/rules",
        content_type: "text/html; charset=utf-8",
        body: include_bytes!("page/rules.html"),
    },
    Asset {
        path: "/rules.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("page/rules.js"),
    },
    Asset {
        path: "/rules/systems.md",
        content_type: "text/markdown; charset=utf-8",
        body: include_bytes!("../../docs/rules/systems.md"),
    },
    Asset {
        path: "/rules/fide.md",
        content_type: "text/markdown; charset=utf-8",
        body: include_bytes!("../../docs/rules/fide.md"),
    },
];

/// The file served at `path`, if any (`/index.html` is `/`).
pub fn asset(path: &str) -> Option<&'static Asset> {
    let path = if path == "/index.html" { "/" } else { path };
    ASSETS.iter().find(|a| a.path == path)
}
