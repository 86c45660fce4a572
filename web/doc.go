// Package web serves read-only pages over a parley root and its vault:
// the debates (filtered by layer, verdict, state and text), each debate as
// a readable thread with an integrity badge from verifying its hash chain
// on every load, the consensus records (rendered with goldmark, wikilinks
// as links, the supersession chain), any page of the vault, and search.
// A debate that is running updates live over server-sent events.
//
// Server is an http.Handler. It never writes: pages are read on each
// request, nothing that could show a stale integrity badge is cached.
// Files are read only through os.Root handles of the root and the vault,
// after the request path was checked segment by segment; a path with "..",
// an encoded separator or dot, a hidden name or a symbolic link anywhere
// in it is 404. Markdown is rendered without raw HTML, and every response
// carries a restrictive Content-Security-Policy: pages load their own
// stylesheet and, only where a debate updates live, their own script.
package web
