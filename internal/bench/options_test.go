package bench

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/jetstream"
)

// The defaults pass; every count a person can set to nothing is refused
// with the flag that set it.
func TestOptionsCheck(t *testing.T) {
	for name, o := range map[string]interface{ Check() error }{
		"cli": DefaultCLIOptions, "messenger": DefaultMessengerOptions, "debate": DefaultDebateOptions, "consensus": DefaultConsensusOptions,
	} {
		if err := o.Check(); err != nil {
			t.Errorf("the %s defaults: %v", name, err)
		}
	}
	cli := func(f func(*CLIOptions)) error { o := DefaultCLIOptions; f(&o); return o.Check() }
	msg := func(f func(*MessengerOptions)) error { o := DefaultMessengerOptions; f(&o); return o.Check() }
	for _, c := range []struct {
		err  error
		want string
	}{
		{cli(func(o *CLIOptions) { o.Idle = 0 }), "--idle 0: each run needs at least one message"},
		{cli(func(o *CLIOptions) { o.PerSender = -3 }), "--per-sender -3: each run needs at least one message"},
		{cli(func(o *CLIOptions) { o.Rounds = 0 }), "--rounds 0: each run needs at least one message"},
		{cli(func(o *CLIOptions) { o.IdleGap = -time.Millisecond }), "--idle-gap -1ms: 0 or more"},
		{cli(func(o *CLIOptions) { o.Interval = 0 }), "--interval 0s: more than 0"},
		{cli(func(o *CLIOptions) { o.IdleGap = 0 }), ""},
		{msg(func(o *MessengerOptions) { o.Backend.Name = "pigeon" }), `--transport "pigeon": use file or nats`},
		{msg(func(o *MessengerOptions) { o.Backend.Name = BackendNATS; o.Throughput = 0 }), "--throughput 0: each run needs at least one operation"},
		{msg(func(o *MessengerOptions) { o.Raw = -1 }), "--raw -1: each run needs at least one operation"},
		{DebateOptions{Sequential: 1, Concurrent: 1, Rounds: 0, AgentPairs: 1}.Check(), "--rounds 0: at least 1"},
		{ConsensusOptions{Records: 1, Checks: 1, Processes: 1}.Check(), "--filings 0: at least 1"},
	} {
		got := ""
		if c.err != nil {
			got = c.err.Error()
		}
		if got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

func TestParseBackends(t *testing.T) {
	bs, err := ParseBackends([]string{BackendFile, BackendNATS}, "nats://10.1.1.1:4222")
	if err != nil || len(bs) != 2 || bs[0] != (Backend{Name: BackendFile}) || bs[1] != (Backend{Name: BackendNATS, NATSURL: "nats://10.1.1.1:4222"}) {
		t.Errorf("ParseBackends = %+v, %v", bs, err)
	}
	if bs, err := ParseBackends(nil, "nats://x"); err != nil || len(bs) != 0 {
		t.Errorf("no backends: %+v, %v", bs, err)
	}
	if _, err := ParseBackends([]string{BackendFile, "File"}, ""); !errors.Is(err, ErrBackend) || !strings.Contains(err.Error(), `"File"`) {
		t.Errorf("an unknown name: %v", err)
	}
}

// A NATS server that is not there, or no Go toolchain for the floor: the
// error says what to do and is still the same error for errors.Is; any
// other error passes as it is.
func TestWithHint(t *testing.T) {
	down := fmt.Errorf("%w: nats://127.0.0.1:1: no servers", jetstream.ErrUnavailable)
	if err := withHint(down); !errors.Is(err, jetstream.ErrUnavailable) || err.Error() != down.Error()+"; start a scratch server with: go run github.com/nats-io/nats-server/v2@v2.15.2 -js -sd DIR, and give --nats-url" {
		t.Errorf("unavailable: %v", err)
	}
	if err := withHint(ErrNoToolchain); !errors.Is(err, ErrNoToolchain) || !strings.HasSuffix(err.Error(), "pass --floor ./floor") {
		t.Errorf("no toolchain: %v", err)
	}
	other := errors.New("disk full")
	if withHint(other) != other || withHint(nil) != nil {
		t.Error("withHint changed an error it has nothing to say about")
	}
}

func TestConsensusWriteText(t *testing.T) {
	var b bytes.Buffer
	r := &ConsensusResult{Records: 100000, CPUs: 2, WarmCheckP50Us: 412, SelectP50Us: 9, WarmChecks: 2000, NewProcessP50Ms: 21.5, ProcessFloorP50Ms: 13.25,
		WarmByKindP50Us: map[string]int{"same": 400}}
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"consensus, 100000 records, 2 CPUs", "  warm check                 412 µs  SELECT by name 9 µs  (p50 of 2000;",
		"  check, new process        21.5 ms  parley --help 13.2 ms", "warm check p50 by question: map[same:400]"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("%q lacks %q", b.String(), want)
		}
	}
	broken := errors.New("pipe closed")
	if err := r.WriteText(failingWriter{broken}); !errors.Is(err, broken) {
		t.Errorf("to a failing writer: %v", err)
	}
}

// A --parley that names no program is refused before anything starts,
// saying so as the flag that named it.
func TestParleyThatIsNoProgram(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	notExec := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notExec, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]string{
		filepath.Join(dir, "missing"):    "no such file or directory",
		notExec:                          "permission denied",
		"parley-no-such-program-on-path": "not found",
	} {
		_, err := parley(p)
		if err == nil || !strings.HasPrefix(err.Error(), "--parley "+p+": ") || !strings.Contains(err.Error(), want) {
			t.Errorf("parley(%q) = %v; want an error saying --parley %s: … %s", p, err, p, want)
		}
	}
	if self, err := parley(""); err != nil || self == "" {
		t.Errorf("parley(\"\") = %q, %v; want this executable", self, err)
	}
}
