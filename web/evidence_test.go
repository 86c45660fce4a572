package web

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/parleyhq/parley/debate"
)

// The evidence view serves the lines a turn cited, and nothing else: a
// file no turn cited, a citation the checker refused (outside the
// workspace), a cited file since replaced by a symbolic link out of the
// workspace or by a named pipe, a directory, and hostile ids are all 404.
func TestEvidenceViewServesOnlyCitedFilesUnderTheWorkspace(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("the secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"link.txt": "one\ntwo\n", "pipe.txt": "one\n", "sub/code.go": "package x\n"} {
		p := filepath.Join(f.workspace, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	id := f.run(debate.LayerSpec, "Evidence paths", "Paths are safe",
		attacker(turns("1|Paths escape|Paths are safe|-1|50|Look.|notes.md:2,link.txt:1,pipe.txt,sub/code.go:1,../"+filepath.Base(filepath.Dir(outside))+"/secret.txt:1,sub",
			"2||||10|")),
		defender(turns("1|Paths are safe||0|40|No.")))
	ev := func(ref string) string { return "/debates/" + id + "/evidence?ref=" + url.QueryEscape(ref) }

	// Cited and under the workspace: the lines, the cited one marked.
	code, body := getBody(t, f.srv, ev("notes.md:2"))
	if code != http.StatusOK || !strings.Contains(body, `<tr id="L2" class="cited">`) || !strings.Contains(body, "three") {
		t.Fatalf("notes.md:2: %d\n%s", code, body)
	}
	if code, body := getBody(t, f.srv, ev("sub/code.go:1")); code != http.StatusOK || !strings.Contains(body, "package x") {
		t.Errorf("sub/code.go:1: %d", code)
	}
	// The debate page links the ones it can show, and only those.
	_, page := getBody(t, f.srv, "/debates/"+id)
	for _, ref := range []string{"notes.md:2", "link.txt:1", "pipe.txt", "sub/code.go:1"} {
		if !strings.Contains(page, `href="`+strings.ReplaceAll(ev(ref), "&", "&amp;")) {
			t.Errorf("the debate page does not link %s", ref)
		}
	}
	if strings.Contains(page, "evidence?ref="+url.QueryEscape("../"+filepath.Base(filepath.Dir(outside)))) {
		t.Error("the debate page links a citation outside the workspace")
	}

	// Swapped after the debate: a symbolic link out, a named pipe.
	if err := os.Remove(filepath.Join(f.workspace, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(f.workspace, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(f.workspace, "pipe.txt")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(f.workspace, "pipe.txt"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{
		ev("link.txt:1"), // now a link out of the workspace
		ev("pipe.txt"),   // now a named pipe: refused, not waited on
		ev("three.md:1"), // cited by no turn
		ev("notes.md:3"), // a line no turn cited
		ev("../" + filepath.Base(filepath.Dir(outside)) + "/secret.txt:1"), // the checker said outside_root
		ev("sub"),                      // a directory
		ev(outside),                    // an absolute path
		"/debates/" + id + "/evidence", // no ref
		"/debates/..%2F..%2Fetc/evidence?ref=notes.md%3A2",
		"/debates/20260101-spec-no-such-debate-abcdef/evidence?ref=notes.md%3A2",
	} {
		code, body := getBody(t, f.srv, path)
		if code != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", path, code)
		}
		if strings.Contains(body, "the secret") {
			t.Errorf("%s: served the file outside the workspace", path)
		}
	}
}

// getBody serves one request and returns its status and body.
func getBody(t *testing.T, h http.Handler, target string) (int, string) {
	t.Helper()
	res, body := get(t, h, target)
	return res.StatusCode, body
}

// A unique prefix of a debate id, in the address, leads to the debate, as
// on the command line; an ambiguous or unknown one is not found.
func TestDebatePrefixRedirects(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a := f.run(debate.LayerSpec, "Alpha question", "A", conceding...)
	b := f.run(debate.LayerSpec, "Beta question", "B", conceding...)
	res, _ := get(t, f.srv, "/debates/"+a[:strings.Index(a, "alpha")+len("alpha")])
	if res.StatusCode != 302 || res.Header.Get("Location") != "/debates/"+a {
		t.Errorf("a unique prefix: %d → %q", res.StatusCode, res.Header.Get("Location"))
	}
	common := b[:strings.Index(b, "beta")] // "<date>-spec-": both debates, unless made on two dates
	if strings.HasPrefix(a, common) {
		if res, _ := get(t, f.srv, "/debates/"+common); res.StatusCode != 404 {
			t.Errorf("an ambiguous prefix %s: %d, want 404", common, res.StatusCode)
		}
	}
	for _, p := range []string{"20991231-none", "..", "ab"} {
		if res, _ := get(t, f.srv, "/debates/"+p); res.StatusCode != 404 {
			t.Errorf("%s: %d, want 404", p, res.StatusCode)
		}
	}
}

// A debate whose verdict.json no longer parses is shown as tampered, and
// the evidence its page links is still served, not a 500.
func TestEvidenceOfADebateWithABrokenVerdict(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id := f.run(debate.LayerSpec, "Evidence", "Notes say so",
		attacker(turns("1|Notes do not|Notes say so|-1|50|Look.|notes.md:2", "2||||10|")),
		defender(turns("1|Notes say so||0|40|No.")))
	if err := os.WriteFile(filepath.Join(f.root, "debates", id, "verdict.json"), []byte(`{"verdict":`), 0o600); err != nil {
		t.Fatal(err)
	}
	ref := "/debates/" + id + "/evidence?ref=" + url.QueryEscape("notes.md:2")
	if _, page := getBody(t, f.srv, "/debates/"+id); !strings.Contains(page, strings.ReplaceAll(ref, "&", "&amp;")) {
		t.Fatalf("the debate page does not link notes.md:2")
	}
	if code, body := getBody(t, f.srv, ref); code != http.StatusOK || !strings.Contains(body, `<tr id="L2" class="cited">`) {
		t.Errorf("the linked evidence: %d", code)
	}
}

// A tampered transcript's unverified turns show their evidence as text,
// marked unverified, and link none of it: the evidence view serves only
// what a verified turn cited, so no link on the page leads to a 404.
func TestUnverifiedTurnsLinkNoEvidence(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id := f.run(debate.LayerSpec, "Evidence", "Notes say so",
		attacker(turns("1|Notes do not|Notes say so|-1|50|Look.|notes.md:2,https://example.com/a", "2||||10|")),
		defender(turns("1|Notes say so||0|40|No.|notes.md:1")))
	f.tamperFile(id, "Look.", "Lock.")
	ev := func(ref string) string { return "/debates/" + id + "/evidence?ref=" + url.QueryEscape(ref) }
	_, page := getBody(t, f.srv, "/debates/"+id)
	if !strings.Contains(page, "TAMPERED") && !strings.Contains(page, "tampered") {
		t.Fatalf("the page does not say the debate was tampered with")
	}
	for _, href := range []string{ev("notes.md:2"), "https://example.com/a"} {
		if strings.Contains(page, `href="`+strings.ReplaceAll(href, "&", "&amp;")) {
			t.Errorf("an unverified turn links %s", href)
		}
	}
	if !strings.Contains(page, `<code>notes.md:2</code> <span class="unverified-mark"`) {
		t.Errorf("the unverified turn's reference is not shown, marked unverified")
	}
	if code, _ := getBody(t, f.srv, ev("notes.md:2")); code != http.StatusNotFound {
		t.Errorf("evidence of an unverified turn: %d, want 404", code)
	}
}

// A cited file that has left the workspace since the debate: the link the
// debate's page offers leads to a 404 that says so and leads back, not to
// "There is no page at this address".
func TestEvidenceGoneFromTheWorkspaceSaysSo(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	if err := os.WriteFile(filepath.Join(f.workspace, "gone.go"), []byte("package gone\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	id := f.run(debate.LayerSpec, "Evidence", "Notes say so",
		attacker(turns("1|Notes do not|Notes say so|-1|50|Look.|gone.go:1", "2||||10|")),
		defender(turns("1|Notes say so||0|40|No.")))
	ref := "/debates/" + id + "/evidence?ref=" + url.QueryEscape("gone.go:1")
	if _, page := getBody(t, f.srv, "/debates/"+id); !strings.Contains(page, strings.ReplaceAll(ref, "&", "&amp;")) {
		t.Fatalf("the debate page does not link gone.go:1")
	}
	if err := os.Remove(filepath.Join(f.workspace, "gone.go")); err != nil {
		t.Fatal(err)
	}
	code, body := getBody(t, f.srv, ref)
	if code != http.StatusNotFound {
		t.Errorf("status %d, want 404", code)
	}
	for _, want := range []string{"Evidence not found", "gone.go:1, cited in this debate, cannot be shown from its workspace " + f.workspace,
		"it is no longer there", `href="/debates/` + id + `">Back to the debate</a>`} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %q\n%s", want, body)
		}
	}
	// A citation no turn made is still plainly not found.
	if _, body := getBody(t, f.srv, "/debates/"+id+"/evidence?ref=other.go%3A1"); !strings.Contains(body, "There is no page at this address.") {
		t.Errorf("an uncited file: %s", body)
	}
}

// A whole file cited that is longer than the view shows says that it goes
// on, rather than looking as if it ended at the last line shown.
func TestEvidenceOfALongWholeFileSaysItGoesOn(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	var long, short strings.Builder
	for i := 1; i <= maxEvidenceLines+100; i++ {
		fmt.Fprintf(&long, "line %d\n", i)
	}
	for i := 1; i <= maxEvidenceLines; i++ {
		fmt.Fprintf(&short, "line %d\n", i)
	}
	for name, body := range map[string]string{"long.txt": long.String(), "exact.txt": short.String()} {
		if err := os.WriteFile(filepath.Join(f.workspace, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	id := f.run(debate.LayerSpec, "Evidence", "Notes say so",
		attacker(turns("1|Notes do not|Notes say so|-1|50|Look.|long.txt,exact.txt", "2||||10|")),
		defender(turns("1|Notes say so||0|40|No.")))
	const note = "The whole file was cited; its first 400 lines are shown, and it goes on."
	code, body := getBody(t, f.srv, "/debates/"+id+"/evidence?ref=long.txt")
	if code != http.StatusOK || !strings.Contains(body, note) || strings.Contains(body, "line 401") {
		t.Errorf("long.txt: %d, note %v", code, strings.Contains(body, note))
	}
	if _, body := getBody(t, f.srv, "/debates/"+id+"/evidence?ref=exact.txt"); !strings.Contains(body, "line 400") || strings.Contains(body, note) {
		t.Errorf("a file of exactly %d lines is said to go on, or is cut", maxEvidenceLines)
	}
}

// A citation past the end of a one-line file says the file has 1 line, on
// the debate's page and on the evidence page: both said "1 lines".
func TestEvidencePastTheEndOfAOneLineFile(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	if err := os.WriteFile(filepath.Join(f.workspace, "one.md"), []byte("only one line\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	id := f.run(debate.LayerSpec, "One line", "It is short",
		attacker(turns("1|It is long|It is short|-1|50|Look.|one.md:5", "2||||10|")),
		defender(turns("1|It is short||0|40|No.")))
	_, page := getBody(t, f.srv, "/debates/"+id)
	if !strings.Contains(page, `<span class="detail">the file has 1 line</span>`) {
		t.Errorf("the debate page does not say the file has 1 line:\n%s", page)
	}
	code, body := getBody(t, f.srv, "/debates/"+id+"/evidence?ref="+url.QueryEscape("one.md:5"))
	if code != http.StatusOK || !strings.Contains(body, "The file has 1 line: the cited line 5 is past its end.") {
		t.Errorf("evidence page: %d\n%s", code, body)
	}
}
