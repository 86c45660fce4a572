package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
)

// Hostile agent text, in JSON escapes: an OSC 52 clipboard write, a screen
// clear, an 8-bit CSI, a bidi override, a carriage return, a bell.
const hostileText = `\u001b]52;c;cm0gLXJmIH4=\u0007 \u001b[2J\u009b31m \u202egnp.exe\u202c \rgone`

// inPTY runs "parley ARGS" with its stdout and stderr on a pseudo-terminal
// and returns all it wrote there.
func inPTY(t *testing.T, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "PARLEY_TEST_AS_CLI=1")
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 50, Cols: 200})
	if err != nil {
		t.Fatalf("pty: %v", err)
	}
	defer f.Close()
	var out bytes.Buffer
	done := make(chan struct{})
	go func() { io.Copy(&out, f); close(done) }() // ends with EIO when the child exits
	werr := make(chan error, 1)
	go func() { werr <- cmd.Wait() }()
	select {
	case <-werr:
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("%v did not finish", args)
	}
	select {
	case <-done:
	case <-time.After(5 * time.Second):
	}
	return out.Bytes()
}

// escapes finds what would drive a terminal in out: an escape sequence
// other than parley's own "\r\x1b[K" status-line redraw, a bell, a C1
// control (8-bit or UTF-8), a bidi override or isolate, a backspace.
func escapes(out []byte) []string {
	own := bytes.ReplaceAll(out, []byte("\r\x1b[K"), nil)
	own = bytes.ReplaceAll(own, []byte("\r\n"), []byte("\n")) // the pty's own line discipline
	var found []string
	for _, bad := range []struct {
		name string
		re   *regexp.Regexp
	}{
		{"ESC", regexp.MustCompile(`\x1b`)},
		{"BEL", regexp.MustCompile(`\x07`)},
		{"BS", regexp.MustCompile(`\x08`)},
		{"CR", regexp.MustCompile(`\r`)},
		{"C1 (UTF-8)", regexp.MustCompile(`\xc2[\x80-\x9f]`)},
		{"bidi", regexp.MustCompile("[\u202a-\u202e\u2066-\u2069]")},
	} {
		if loc := bad.re.FindIndex(own); loc != nil {
			found = append(found, bad.name+" near "+string(bytes.ToValidUTF8(own[max(0, loc[0]-30):min(len(own), loc[1]+30)], nil)))
		}
	}
	for _, b := range own { // an 8-bit C1 byte that is not part of a UTF-8 rune
		if b == 0x9b || b == 0x9d {
			if !bytes.Contains(own, []byte{0xc2, b}) {
				found = append(found, "8-bit C1")
				break
			}
		}
	}
	return found
}

// TestNoEscapeFromAgentTextReachesTheTerminal runs a debate whose agents
// write terminal escapes into every field, then every command that shows
// agent text, on a pseudo-terminal: none of the escapes reaches it. The
// vault pages store none either.
func TestNoEscapeFromAgentTextReachesTheTerminal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	critic := `{"turns":[{"round":1,"position":"Keys leak ` + hostileText + `","counter_to":"Use ` + hostileText + `","confidence_change":-1,"tokens":120,"text":"An argument ` + hostileText + `","evidence_refs":["notes.md:1"]},{"round":2,"position":"","counter_to":"","confidence_change":0,"tokens":30}]}`
	defender := `{"turns":[{"round":1,"position":"Hold ` + hostileText + `","tokens":100,"text":"Because ` + hostileText + `"}]}`
	s := writeScripts(t, dir, map[string]string{"critic": critic, "proposer": defender})
	os.WriteFile(filepath.Join(dir, "notes.md"), []byte("one line\n"), 0o600)

	out := inPTY(t, "--root", root, "debate", "run", "--layer", "spec", "--topic", "Keys", "--position", "Use UUIDv7 keys",
		"--workspace", dir, "--agent", "attacker=script:"+s["critic"], "--agent", "defender=script:"+s["proposer"])
	if !bytes.Contains(out, []byte("CONSENSUS_REACHED")) {
		t.Fatalf("debate run:\n%q", out)
	}
	if e := escapes(out); e != nil {
		t.Errorf("debate run let through %v", e)
	}
	id := regexp.MustCompile(`\d{8}-spec-keys-[a-z2-7]{6}`).FindString(string(out))
	if id == "" {
		t.Fatalf("no debate id in %q", out)
	}
	// The text is there, made harmless: the terminal shows U+FFFD.
	if show := inPTY(t, "--root", root, "transcripts", "show", id); !strings.Contains(string(show), "Keys leak \uFFFD]52;c;") {
		t.Errorf("show does not show the neutralised text:\n%q", show)
	}
	for _, args := range [][]string{
		{"transcripts", "show", id}, {"transcripts", "show", id, "--format", "md"}, {"transcripts", "show", id, "--format", "html"},
		{"transcripts", "show", id, "--format", "json"}, {"--json", "transcripts", "show", id},
		{"transcripts", "list"}, {"transcripts", "verify", id}, {"debate", "list"}, {"debate", "status", id}, {"--json", "debate", "status", id},
		{"consensus", "list"}, {"consensus", "show", "spec-keys"}, {"--json", "consensus", "show", "spec-keys"},
		{"consensus", "search", "keys leak"}, {"consensus", "check", "--layer", "spec", "--topic", "Keys", "--position", "Use UUIDv7 keys"},
		{"transcripts", "show", "no-such\x1b[2J"},
	} {
		got := inPTY(t, append([]string{"--root", root}, args...)...)
		if len(got) == 0 {
			t.Errorf("%q printed nothing", args)
		}
		if e := escapes(got); e != nil {
			t.Errorf("%q let through %v", args, e)
		}
	}
	for _, p := range []string{filepath.Join(root, "vault", "wiki", "debates", id+".md"), filepath.Join(root, "vault", "wiki", "consensus", "spec-keys.md")} {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if e := escapes(data); e != nil {
			t.Errorf("%s stores %v", filepath.Base(p), e)
		}
	}
}
