package web

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"net/url"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/transcripts"
	"github.com/parleyhq/parley/vault"
	"github.com/parleyhq/parley/vocab"
)

//go:embed templates/*.html static/*
var files embed.FS

// pages holds one template set per page, each with the layout.
var pages = sync.OnceValue(func() map[string]*template.Template {
	funcs := template.FuncMap{
		"date": func(ts string) string {
			if len(ts) >= 10 {
				return ts[:10]
			}
			return ts
		},
		"join": strings.Join,
		// pathEscape makes a name one segment of an address: html/template
		// leaves '?' and '#' as they are.
		"pathEscape": url.PathEscape,
		"vaultURL":   vaultURL,
		"count":      vocab.Count,
	}
	layout := template.Must(template.New("layout").Funcs(funcs).ParseFS(files, "templates/layout.html"))
	out := map[string]*template.Template{}
	for _, name := range []string{"index", "debate", "records", "record", "page", "search", "error", "evidence"} {
		t := template.Must(layout.Clone())
		out[name] = template.Must(t.ParseFS(files, "templates/"+name+".html"))
	}
	return out
})

// stylesheet is the site's CSS followed by the transcript's.
var stylesheet = sync.OnceValue(func() []byte {
	b, err := files.ReadFile("static/style.css")
	if err != nil {
		panic(err)
	}
	return append(append(b, '\n'), transcripts.Stylesheet...)
})

var liveJS = sync.OnceValue(func() []byte {
	b, err := files.ReadFile("static/live.js")
	if err != nil {
		panic(err)
	}
	return b
})

// layoutData is what the layout shows around a page.
type layoutData struct {
	Title     string
	Nav       string // debates, consensus, vault, search
	Query     string // the search box's text
	MainClass string
	Script    bool // load live.js (and allow it in the CSP)
	Refresh   int  // seconds: a <noscript> refresh for a live page
	Root      string
	VaultDir  string
	Data      any
	// raw, when set, writes the page's main part after its "content"
	// template and before its "after" template, without going through a
	// template (a long debate's thread is large).
	raw func(io.Writer) error
}

// bufs recycles the buffers pages are rendered into.
var bufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// render writes a page. The page is rendered into a buffer first, so that
// a template error is a clean 500 rather than half a page.
func (s *Server) render(w http.ResponseWriter, r *http.Request, status int, name string, l layoutData) {
	l.Root, l.VaultDir = s.debates.Dir(), s.vault.Path()
	buf := bufs.Get().(*bytes.Buffer)
	buf.Reset()
	defer bufs.Put(buf)
	t := pages()[name]
	var err error
	if l.raw == nil {
		err = t.ExecuteTemplate(buf, "layout", l)
	} else {
		err = t.ExecuteTemplate(buf, "top", l)
		if err == nil {
			err = t.ExecuteTemplate(buf, "content", l.Data)
		}
		if err == nil {
			err = l.raw(buf)
		}
		if err == nil {
			err = t.ExecuteTemplate(buf, "after", l.Data)
		}
		if err == nil {
			err = t.ExecuteTemplate(buf, "bottom", l)
		}
	}
	if err != nil {
		s.log.Error("render a page", "op", name, "path", r.URL.Path, "err", err)
		http.Error(w, "internal error rendering the page", http.StatusInternalServerError)
		return
	}
	page := transcripts.SafeHTML(buf.Bytes())
	h := w.Header()
	if l.Script {
		h.Set("Content-Security-Policy", scriptCSP)
	}
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(page)))
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(page)
	}
}

type errorData struct {
	Title, Message string
	// Link, when set, is a page to go on to, named by LinkText.
	Link, LinkText string
}

func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	s.render(w, r, http.StatusNotFound, "error", layoutData{Title: "Not found", Data: errorData{Title: "Not found", Message: "There is no page at this address."}})
}

// badFilter answers 400 for a list page whose filter names no value of
// its kind ("?verdict=zz"): the list unfiltered, as if it were, would
// mislead whoever followed the link. Each problem is said with the values
// to use, and the page links to the list (link, named linkText).
func (s *Server) badFilter(w http.ResponseWriter, r *http.Request, nav, link, linkText string, problems []string) {
	s.render(w, r, http.StatusBadRequest, "error", layoutData{Title: "Unknown filter", Nav: nav, Data: errorData{
		Title: "Unknown filter", Message: strings.Join(problems, "; ") + ".", Link: link, LinkText: linkText}})
}

// tooLarge answers 413 for the vault page p, which is over
// vault.MaxPageBytes (err says so, with its size when readPage saw it):
// the page exists, but is not read; an editor can open it.
func (s *Server) tooLarge(w http.ResponseWriter, r *http.Request, p string, err error) {
	size := "larger than " + humanBytes(vault.MaxPageBytes)
	if tl := (*tooLargeError)(nil); errors.As(err, &tl) {
		size = humanBytes(tl.Size) + " (" + strconv.FormatInt(tl.Size, 10) + " bytes)"
	}
	s.render(w, r, http.StatusRequestEntityTooLarge, "error", layoutData{Title: "Too large to show", Data: errorData{Title: "Too large to show",
		Message: fmt.Sprintf("The page %s is %s; parley serve shows pages up to %s. Open it in Obsidian or an editor: %s",
			p, size, humanBytes(vault.MaxPageBytes), filepath.Join(s.vault.Path(), filepath.FromSlash(p)))}})
}

// humanBytes is n in KiB or MiB, to one decimal ("1.2 MiB", "1 MiB").
func humanBytes(n int64) string {
	f := func(u float64, name string) string {
		return strings.TrimSuffix(strconv.FormatFloat(float64(n)/u, 'f', 1, 64), ".0") + " " + name
	}
	switch {
	case n >= 1<<20:
		return f(1<<20, "MiB")
	case n >= 1<<10:
		return f(1<<10, "KiB")
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

func (s *Server) fail(w http.ResponseWriter, r *http.Request, op string, err error) {
	s.log.Error("serve a page", "op", op, "path", r.URL.Path, "err", err)
	s.render(w, r, http.StatusInternalServerError, "error", layoutData{Title: "Error", Data: errorData{Title: "Something went wrong", Message: "The page could not be read; the server logs why (parley serve --verbose)."}})
}

func (s *Server) handleStatic(w http.ResponseWriter, r *http.Request) {
	var body []byte
	switch r.PathValue("name") {
	case "style.css":
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
		body = stylesheet()
	case "live.js":
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		body = liveJS()
	default:
		s.notFound(w, r)
		return
	}
	w.Header().Set("Cache-Control", "no-cache")
	// Set, not left to net/http: a HEAD response writes no body to count.
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

// vaultURL is the address of the vault page p (a slash path relative to
// the vault) under /vault/, shown as a page whatever folder it is in.
func vaultURL(p string) string { return "/vault/" + escapeSegments(strings.TrimSuffix(p, ".md")) }

// escapeSegments escapes each segment of the slash path p.
func escapeSegments(p string) string {
	segs := strings.Split(p, "/")
	for i := range segs {
		segs[i] = url.PathEscape(segs[i])
	}
	return strings.Join(segs, "/")
}

// pageURL is the address of a vault page (a slash path relative to the
// vault): a debate's page links to the debate (its verified transcript), a
// consensus record to its record page, any other page to /wiki/… (pages
// under wiki/) or /vault/…, without ".md".
func pageURL(p string) string {
	dir, file := path.Split(p)
	name := strings.TrimSuffix(file, ".md")
	switch {
	case dir == "wiki/debates/" && debate.ValidateID(name) == nil && strings.HasSuffix(file, ".md"):
		return "/debates/" + name
	case dir == "wiki/consensus/" && name != "consensus-records" && strings.HasSuffix(file, ".md"):
		return "/consensus/" + url.PathEscape(name)
	}
	p = strings.TrimSuffix(p, ".md")
	if rest, ok := strings.CutPrefix(p, "wiki/"); ok {
		return "/wiki/" + escapeSegments(rest)
	}
	return vaultURL(p)
}
