package vault

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/clip"
	"github.com/parleyhq/parley/internal/durable"
)

// newVault makes a vault in a temp dir holding the given pages.
func newVault(t testing.TB, pages map[string]string, opts ...Option) *Vault {
	t.Helper()
	dir := t.TempDir()
	for p, content := range pages {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	v, err := Open(dir, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	return v
}

func TestParseLink(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want Link
		err  bool
	}{
		{in: "[[spec-x]]", want: Link{Target: "spec-x"}},
		{in: "spec-x", want: Link{Target: "spec-x"}},
		{in: "[[debates/20261130-spec-x-abcdef]]", want: Link{Target: "debates/20261130-spec-x-abcdef"}},
		{in: "[[spec-x|the topic]]", want: Link{Target: "spec-x", Alias: "the topic"}},
		{in: `[[spec-x\|the topic]]`, want: Link{Target: "spec-x", Alias: "the topic"}},
		{in: "[[spec-x#Final Position]]", want: Link{Target: "spec-x", Heading: "Final Position"}},
		{in: "[[spec-x#Rationale|why]]", want: Link{Target: "spec-x", Heading: "Rationale", Alias: "why"}},
		{in: "[[#Rationale]]", want: Link{Heading: "Rationale"}},
		{in: "[[spec-x#^block1]]", want: Link{Target: "spec-x", Heading: "^block1"}},
		{in: "[[ padded | alias ]]", want: Link{Target: "padded", Alias: "alias"}},
		{in: "[[a|b|c]]", want: Link{Target: "a", Alias: "b|c"}},
		{in: "[[]]", err: true},
		{in: "[[ ]]", err: true},
		{in: "[[|alias]]", err: true},
		{in: "[[a[b]]", err: true},
		{in: "[[a\nb]]", err: true},
		{in: "[[a\x00b]]", err: true},
		// A target ending in a backslash: written back as "[[\\|0]]" it
		// would read as the table escape and lose its target (found by
		// FuzzParseLink).
		{in: `[[\#|0]]`, err: true},
		{in: `[[a\\#h]]`, err: true},
		{in: `[[a\b#h]]`, want: Link{Target: `a\b`, Heading: "h"}},
		{in: "[[" + strings.Repeat("a", MaxLinkBytes+1) + "]]", err: true},
	} {
		got, err := ParseLink(tc.in)
		if tc.err {
			if !errors.Is(err, ErrInvalidLink) {
				t.Errorf("%q: err %v, want ErrInvalidLink", clip.Runes(tc.in, 81), err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q: got %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
}

func TestResolve(t *testing.T) {
	t.Parallel()
	v := newVault(t, map[string]string{
		"wiki/consensus/spec-idempotency.md":     "x",
		"wiki/debates/20261130-spec-x-abcdef.md": "x",
		"wiki/concepts/Consensus Debate.md":      "x",
		"wiki/a/dup.md":                          "x",
		"wiki/b/dup.md":                          "x",
		"wiki/c/Case.md":                         "x",
		"wiki/d/case.md":                         "x",
		"assets/diagram.png":                     "x",
		".obsidian/hidden.md":                    "x",
		"wiki/consensus/.staging.md.1234.tmp":    "x",
	})
	for _, tc := range []struct {
		link, want string
		err        error
	}{
		{"spec-idempotency", "wiki/consensus/spec-idempotency.md", nil},
		{"[[spec-idempotency|alias]]", "wiki/consensus/spec-idempotency.md", nil},
		{"[[spec-idempotency#Rationale]]", "wiki/consensus/spec-idempotency.md", nil},
		{"SPEC-Idempotency", "wiki/consensus/spec-idempotency.md", nil},
		{"spec-idempotency.md", "wiki/consensus/spec-idempotency.md", nil},
		{"debates/20261130-spec-x-abcdef", "wiki/debates/20261130-spec-x-abcdef.md", nil},
		{"[[wiki/debates/20261130-spec-x-abcdef]]", "wiki/debates/20261130-spec-x-abcdef.md", nil},
		{"consensus debate", "wiki/concepts/Consensus Debate.md", nil},
		{"diagram.png", "assets/diagram.png", nil},
		{"a/dup", "wiki/a/dup.md", nil},
		{"dup", "", ErrAmbiguous},
		{"Case", "wiki/c/Case.md", nil},
		{"CASE", "", ErrAmbiguous},
		{"hidden", "", ErrNotFound},
		{"missing", "", ErrNotFound},
		{"x/spec-idempotency", "", ErrNotFound},
		{"[[#heading-only]]", "", ErrInvalidLink},
		{"[[../etc/passwd]]", "", ErrNotFound},
	} {
		got, err := v.Resolve(tc.link)
		if tc.err != nil {
			if !errors.Is(err, tc.err) {
				t.Errorf("%q: got %q, %v; want %v", tc.link, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q: got %q, %v; want %q", tc.link, got, err, tc.want)
		}
	}
	// A page written after the index was built is found; one removed is not.
	if err := v.WritePage("wiki/new/fresh.md", Frontmatter{{"type", "x"}}, nil); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(v.Path(), "wiki", "outside-writer.md"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, link := range []string{"fresh", "outside-writer"} {
		if _, err := v.Resolve(link); err != nil {
			t.Errorf("%s: %v", link, err)
		}
	}
	if err := os.Remove(filepath.Join(v.Path(), "wiki", "outside-writer.md")); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Resolve("outside-writer"); !errors.Is(err, ErrNotFound) {
		t.Errorf("removed page: %v", err)
	}
}

// TestResolveMissesDoNotWalkTheVault: a link to no page used to walk the
// whole vault again (a page of 1000 broken links over 5000 files took 29 s
// to render, holding the vault's lock). A miss now rebuilds the names only
// when a folder changed; pages created, removed or written in the same
// clock tick as the walk are still seen.
func TestResolveMissesDoNotWalkTheVault(t *testing.T) {
	t.Parallel()
	pages := map[string]string{}
	for i := range 200 {
		pages[fmt.Sprintf("wiki/d%d/p%d.md", i%10, i)] = "x"
	}
	v := newVault(t, pages)
	old := time.Now().Add(-time.Hour)
	setDirTimes := func(at time.Time) {
		t.Helper()
		err := filepath.WalkDir(v.Path(), func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				err = os.Chtimes(p, at, at)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	setDirTimes(old)
	builds := func() int {
		v.mu.Lock()
		defer v.mu.Unlock()
		return v.builds
	}
	var src strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&src, "[[missing-%d]] [[p%d]]\n", i, i%200)
	}
	var buf bytes.Buffer
	if err := Render(&buf, []byte(src.String()), v.Resolver(func(p, _ string) string { return "/" + p })); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(buf.String(), "wikilink broken"); n != 1000 {
		t.Fatalf("%d broken links rendered, want 1000", n)
	}
	if n := builds(); n != 1 {
		t.Errorf("%d walks of the vault for one page, want 1", n)
	}

	// Another process creates a page: the next miss sees the folder changed.
	fresh := filepath.Join(v.Path(), "wiki", "d3", "fresh.md")
	if err := os.WriteFile(fresh, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if p, err := v.Resolve("fresh"); err != nil || p != "wiki/d3/fresh.md" {
		t.Errorf("a page created since the walk: %q %v", p, err)
	}
	// ... and removes it: gone.
	setDirTimes(old)
	if _, err := v.Resolve("p1"); err != nil { // settles the index
		t.Fatal(err)
	}
	os.Remove(fresh)
	if _, err := v.Resolve("fresh"); !errors.Is(err, ErrNotFound) {
		t.Errorf("a page removed since the walk: %v", err)
	}

	// A folder changed in the clock tick of the walk (its time is the
	// same before and after the change) is not trusted: the page is found.
	tick := time.Now().Add(time.Second)
	setDirTimes(tick)
	if _, err := v.Resolve("missing-x"); !errors.Is(err, ErrNotFound) { // walks now
		t.Fatal(err)
	}
	same := filepath.Join(v.Path(), "wiki", "d5", "same-tick.md")
	if err := os.WriteFile(same, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(filepath.Dir(same), tick, tick); err != nil {
		t.Fatal(err)
	}
	if p, err := v.Resolve("same-tick"); err != nil || p != "wiki/d5/same-tick.md" {
		t.Errorf("a page created in the tick of the walk: %q %v", p, err)
	}
}

func TestRender(t *testing.T) {
	t.Parallel()
	v := newVault(t, map[string]string{"wiki/consensus/spec-x.md": "x", "wiki/debates/d1.md": "x"})
	src := "# Title\n\n| Date | Topic |\n|---|---|\n| 2026 | [[spec-x\\|The topic]] |\n\n" +
		"See [[debates/d1]], [[spec-x#Rationale|why]], [[missing page]] and `[[in code]]`.\n\n" +
		"<script>alert(1)</script>\n\n<b onclick=x>bold</b> [click](javascript:alert(1))\n"
	var buf bytes.Buffer
	err := Render(&buf, []byte(src), v.Resolver(func(p, h string) string {
		if h != "" {
			return "/page/" + p + "#" + h
		}
		return "/page/" + p
	}))
	if err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"<table>", "<th>Topic</th>",
		`<a class="wikilink" href="/page/wiki/consensus/spec-x.md">The topic</a>`,
		`<a class="wikilink" href="/page/wiki/debates/d1.md">debates/d1</a>`,
		`<a class="wikilink" href="/page/wiki/consensus/spec-x.md#Rationale">why</a>`,
		`<span class="wikilink broken" title="no such page">missing page</span>`,
		"<code>[[in code]]</code>",
		"<!-- raw HTML omitted -->",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	for _, bad := range []string{"<script", "onclick", "javascript:"} {
		if strings.Contains(out, bad) {
			t.Errorf("unsafe %q passed through:\n%s", bad, out)
		}
	}
	// Without a resolver every wikilink is broken, never a link.
	buf.Reset()
	if err := Render(&buf, []byte("[[spec-x]]"), nil); err != nil || strings.Contains(buf.String(), "<a") {
		t.Errorf("nil resolver: %q %v", buf.String(), err)
	}
}

// TestLinkEndLooksOnlyAtTheLink pins the search for a wikilink's "]]": it
// stops at the first bracket and never looks past MaxLinkBytes, so a line
// of "[[" that close far away (or never) is parsed in linear time. The old
// search ran to the end of the line at every "[[": a 800 KB line of
// "[[a|" took over a minute to render.
func TestLinkEndLooksOnlyAtTheLink(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", MaxLinkBytes)
	for _, tc := range []struct {
		rest string
		want int
	}{
		{"a]] tail", 1},
		{"]]", 0},
		{"a]]]", 1},
		{"a", -1},
		{"a]", -1},
		{"a]b]]", -1},
		{"a[b]]", -1},
		{"a|[[b]]", -1},
		{long + "]]", MaxLinkBytes},
		{long + "x]]", -1},
		{long + strings.Repeat("y", 10<<10) + "]]", -1},
	} {
		if got := linkEnd([]byte(tc.rest)); got != tc.want {
			t.Errorf("linkEnd(%q) = %d, want %d", clip.Runes(tc.rest, 81), got, tc.want)
		}
	}
}

// TestRenderHostileLinks renders lines made of wikilink openings that
// close late or never: nothing becomes a link that ParseLink would refuse,
// and the text survives (escaped).
func TestRenderHostileLinks(t *testing.T) {
	t.Parallel()
	resolve := func(l Link) (string, bool) { return "/p/" + l.Target, true }
	for _, tc := range []struct {
		src   string
		links int
	}{
		{strings.Repeat("[[a|", 20000) + "]]", 1}, // only the last: [[a|]]
		{strings.Repeat("[[", 50000), 0},
		{strings.Repeat("[[#", 30000), 0},
		{strings.Repeat("[[a]] [[", 10000), 10000},
		{"[[" + strings.Repeat("b", MaxLinkBytes) + "]] [[" + strings.Repeat("c", MaxLinkBytes+1) + "]]", 1},
	} {
		var buf bytes.Buffer
		if err := Render(&buf, []byte(tc.src), resolve); err != nil {
			t.Fatal(err)
		}
		if got := strings.Count(buf.String(), `class="wikilink"`); got != tc.links {
			t.Errorf("%q: %d links, want %d", clip.Runes(tc.src, 81), got, tc.links)
		}
		if got := len(LinksIn([]byte(tc.src))); got != tc.links {
			t.Errorf("%q: LinksIn found %d, want %d", clip.Runes(tc.src, 81), got, tc.links)
		}
	}
}

func TestLinksInSkipsCode(t *testing.T) {
	t.Parallel()
	got := LinksIn([]byte("a [[one]] `[[two]]`\n\n```\n[[three]]\n```\n\n    [[four]]\n\n[[five|5]]\n"))
	if len(got) != 2 || got[0].Target != "one" || got[1].Target != "five" {
		t.Errorf("links %+v", got)
	}
}

func TestSymlinkOutsideVaultNotRead(t *testing.T) {
	t.Parallel()
	outside := filepath.Join(t.TempDir(), "secret.md")
	if err := os.WriteFile(outside, []byte("---\ntype: consensus\n---\nsecret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	v := newVault(t, map[string]string{"wiki/ok.md": "---\ntype: consensus\n---\nok\n"})
	link := filepath.Join(v.Path(), "wiki", "evil.md")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Dir(outside), filepath.Join(v.Path(), "wiki", "evildir")); err != nil {
		t.Fatal(err)
	}
	if _, err := v.ReadPage("wiki/evil.md"); err == nil {
		t.Error("a symlink out of the vault was read")
	}
	if _, err := v.ReadPage("wiki/evildir/secret.md"); err == nil {
		t.Error("a page through a symlinked folder out of the vault was read")
	}
	if _, err := v.ReadPage("../" + filepath.Base(filepath.Dir(outside)) + "/secret.md"); !errors.Is(err, ErrInvalidPath) {
		t.Errorf(".. path: %v", err)
	}
	pages, err := v.Pages(context.Background(), Query{Type: "consensus"})
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) != 1 || pages[0].Path != "wiki/ok.md" {
		t.Errorf("pages %v", pages)
	}
	if _, err := v.Page("evil"); err == nil {
		t.Error("resolved and read a symlink out of the vault")
	}
	d, err := v.OpenDir("wiki", false)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, _, err := d.ReadFile("evil.md"); !errors.Is(err, ErrNotPage) {
		t.Errorf("Dir.ReadFile of a symlink: %v", err)
	}
	// Even a symlink to a page inside the vault is not read through a Dir.
	if err := os.Symlink("ok.md", filepath.Join(v.Path(), "wiki", "alias.md")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := d.ReadFile("alias.md"); !errors.Is(err, ErrNotPage) {
		t.Errorf("Dir.ReadFile of an inner symlink: %v", err)
	}
	if e, err := d.Lstat("alias.md"); err != nil || e.Regular {
		t.Errorf("Lstat of a symlink: %+v %v", e, err)
	}
}

func TestPagesByTypeAndTag(t *testing.T) {
	t.Parallel()
	v := newVault(t, map[string]string{
		"wiki/consensus/a.md":     "---\ntype: consensus\ntags: [consensus, spec]\n---\n",
		"wiki/consensus/b.md":     "---\ntype: consensus\ntags: [consensus, plan]\n---\n",
		"wiki/consensus/index.md": "---\ntype: index\ntags: [consensus]\n---\n",
		"wiki/consensus/bad.md":   "---\ntype: [\n---\n",
		"wiki/other/c.md":         "---\ntype: concept\ntags: \"#spec\"\n---\n",
		".trash/d.md":             "---\ntype: consensus\n---\n",
		"notes.txt":               "---\ntype: consensus\n---\n",
	})
	ctx := context.Background()
	for _, tc := range []struct {
		q    Query
		want string
	}{
		{Query{Type: "consensus"}, "wiki/consensus/a.md wiki/consensus/b.md"},
		{Query{Tag: "spec"}, "wiki/consensus/a.md wiki/other/c.md"},
		{Query{Tag: "#consensus", Type: "index"}, "wiki/consensus/index.md"},
		{Query{Under: "wiki/other"}, "wiki/other/c.md"},
		{Query{Under: "wiki/none"}, ""},
	} {
		pages, err := v.Pages(ctx, tc.q)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range pages {
			got = append(got, p.Path)
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%+v: %v, want %s", tc.q, got, tc.want)
		}
	}
}

func TestWritePage(t *testing.T) {
	t.Parallel()
	fault := &durable.FaultFS{}
	v := newVault(t, nil, WithFS(func(f durable.FS) durable.FS { fault.FS = f; return fault }))
	fm := Frontmatter{{"type", "consensus"}, {"topic", "a: \"b\"\n---"}}
	if err := v.WritePage("wiki/consensus/spec-a.md", fm, []byte("# A\n")); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]fs.FileMode{"wiki": 0o700, "wiki/consensus": 0o700, "wiki/consensus/spec-a.md": 0o600} {
		info, err := os.Stat(filepath.Join(v.Path(), p))
		if err != nil || info.Mode().Perm() != want {
			t.Errorf("%s: %v %v, want %v", p, info.Mode().Perm(), err, want)
		}
	}
	page, err := v.ReadPage("wiki/consensus/spec-a.md")
	if err != nil || page.Meta["topic"] != "a: \"b\"\n---" || string(page.Body) != "# A\n" {
		t.Fatalf("read back %+v %v", page, err)
	}

	// A full disk mid-write leaves the old page whole and no staging file.
	fault.Fail("write", "spec-a", syscall.ENOSPC, 1)
	err = v.WritePage("wiki/consensus/spec-a.md", Frontmatter{{"type", "other"}}, []byte("new"))
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("err %v, want ENOSPC", err)
	}
	if page, err := v.ReadPage("wiki/consensus/spec-a.md"); err != nil || page.Type() != "consensus" {
		t.Errorf("old page not intact: %+v %v", page, err)
	}
	ents, _ := os.ReadDir(filepath.Join(v.Path(), "wiki", "consensus"))
	if len(ents) != 1 {
		t.Errorf("left behind: %v", ents)
	}

	if err := v.CreatePage("wiki/consensus/spec-a.md", fm, nil); !errors.Is(err, fs.ErrExist) {
		t.Errorf("CreatePage over an existing page: %v", err)
	}
	for _, p := range []string{"../x.md", "/abs.md", "wiki/x.txt", "wiki/.hidden.md", "wiki/a b.md", "wiki/../../x.md", "", "wiki//x.md"} {
		if err := v.WritePage(p, fm, nil); !errors.Is(err, ErrInvalidPath) {
			t.Errorf("%q: %v, want ErrInvalidPath", p, err)
		}
	}
	if err := v.WritePage("wiki/big.md", fm, bytes.Repeat([]byte("x"), MaxPageBytes)); !errors.Is(err, ErrTooLarge) {
		t.Errorf("oversized page: %v", err)
	}
}

func TestReadTooLarge(t *testing.T) {
	t.Parallel()
	v := newVault(t, map[string]string{"big.md": "---\na: b\n---\n" + strings.Repeat("x", MaxPageBytes)})
	if _, err := v.ReadPage("big.md"); !errors.Is(err, ErrTooLarge) {
		t.Errorf("err %v, want ErrTooLarge", err)
	}
}

// BenchmarkRenderHostileLinks renders a 800 KB line of "[[a|" closed once
// at its end (before the bounded search: over a minute).
func BenchmarkRenderHostileLinks(b *testing.B) {
	src := []byte(strings.Repeat("[[a|", 200000) + "]]")
	resolve := func(l Link) (string, bool) { return "/p/" + l.Target, true }
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if err := Render(io.Discard, src, resolve); err != nil {
			b.Fatal(err)
		}
	}
}

// A named pipe named like a page is refused at once (ErrNotPage), never
// waited on: ReadPage opened it without O_NONBLOCK and blocked for good
// ("transcripts show" reads the debate's page through it).
func TestNamedPipeIsNotAPage(t *testing.T) {
	t.Parallel()
	v := newVault(t, map[string]string{"wiki/ok.md": "---\ntype: consensus\n---\nok\n"})
	if err := syscall.Mkfifo(filepath.Join(v.Path(), "wiki", "pipe.md"), 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := v.ReadPage("wiki/pipe.md"); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotPage) {
			t.Fatalf("ReadPage of a named pipe = %v, want ErrNotPage", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("ReadPage blocked on a named pipe")
	}
}

// Pages read one after another into one buffer each come back whole:
// shorter, longer (the buffer grows) and empty ones, with their sizes.
func TestDirReadFileIntoReusesTheBuffer(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a longer page line\n", 400)
	v := newVault(t, map[string]string{
		"wiki/r/first.md": "---\ntype: note\n---\nFirst page, of a middling length.\n",
		"wiki/r/short.md": "tiny\n",
		"wiki/r/long.md":  long,
		"wiki/r/empty.md": "",
		"wiki/r/again.md": "---\ntype: note\n---\nFirst page, of a middling length.\n",
	})
	d, err := v.OpenDir("wiki/r", false)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var buf []byte
	for _, c := range []struct{ name, want string }{
		{"first.md", "---\ntype: note\n---\nFirst page, of a middling length.\n"},
		{"short.md", "tiny\n"},
		{"long.md", long},
		{"empty.md", ""},
		{"again.md", "---\ntype: note\n---\nFirst page, of a middling length.\n"},
	} {
		data, e, err := d.ReadFileInto(c.name, buf)
		if err != nil {
			t.Fatal(err)
		}
		if string(data) != c.want || e.Size != int64(len(c.want)) {
			t.Errorf("%s: read %d bytes %q (size %d), want %d bytes", c.name, len(data), clipFor(data), e.Size, len(c.want))
		}
		if cap(buf) >= len(c.want)+1 && len(c.want) > 0 && &data[:1][0] != &buf[:1][0] {
			t.Errorf("%s: a buffer large enough was not used", c.name)
		}
		if cap(data) > cap(buf) {
			buf = data[:0]
		}
	}
}

func clipFor(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "…"
	}
	return string(b)
}
