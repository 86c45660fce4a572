package agent

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/clip"
)

// MaxOutputBytes bounds what a command may print for one turn.
const MaxOutputBytes = inbox.MaxMessageBytes / 2

// maxStderrBytes is how much of the end of a command's standard error is
// kept, for the last line of a failure's message.
const maxStderrBytes = 4096

// Exec is the exec adapter: it runs Command with "sh -c" for every turn,
// with the request as a JSON object on stdin (the turn_request's fields plus
// "text", the Markdown prompt) and PARLEY_DEBATE_ID, PARLEY_REQUEST_ID,
// PARLEY_ROUND, PARLEY_ROLE and PARLEY_ATTEMPT in its environment.
//
// Its stdout is either a JSON object, the debate_turn's fields (debate_id,
// round and role default to the request's when absent; tokens, when absent,
// are estimated by the coordinator), or plain text: the first non-empty line
// is the position and the rest the argument. A plain-text attacker counters
// the defender's standing position unless it repeats it (then it concedes).
//
// The command is killed, with its process group, when the request's
// deadline passes, the agent stops, the process running it dies (even by
// SIGKILL, see groupGuard), or it prints more than MaxOutputBytes; a child
// it leaves running that holds its output open is killed when the
// command exits (what the command printed is its answer). A non-zero exit
// is an error (a *debate.UnavailableError of kind cannot_start for 126 and
// 127); a Runner runs the command once more and, failing again, reports
// the agent unavailable.
type Exec struct {
	Command string
	// Dir is the working directory ("" = the agent's).
	Dir string
	// Env is added to the agent's environment.
	Env []string
}

var (
	_ Responder = (*Exec)(nil)
	_ Prober    = (*Exec)(nil)
)

// shellWords are the shell's builtins and keywords a command may start
// with: no program to look for.
var shellWords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"!": true, ".": true, ":": true, "[": true, "{": true, "alias": true, "break": true, "case": true,
		"cd": true, "command": true, "continue": true, "eval": true, "exec": true, "exit": true,
		"export": true, "for": true, "getopts": true, "hash": true, "if": true, "local": true,
		"read": true, "readonly": true, "return": true, "set": true, "shift": true, "test": true,
		"times": true, "trap": true, "type": true, "ulimit": true, "umask": true, "unset": true,
		"until": true, "wait": true, "while": true,
		// Builtins of bash, which sh is on some systems.
		"builtin": true, "declare": true, "dirs": true, "let": true, "popd": true, "pushd": true,
		"shopt": true, "source": true, "time": true, "typeset": true,
	}
})

// compoundWords are the reserved words of compound commands: a command
// holding one has programs only the run can tell.
var compoundWords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"case": true, "do": true, "done": true, "elif": true, "else": true, "esac": true, "fi": true,
		"for": true, "if": true, "in": true, "then": true, "until": true, "while": true, "{": true, "}": true, "!": true,
	}
})

// shellSyntax are the characters of quoting, expansion, grouping,
// redirection and patterns: with one, a word may not be what it looks.
const shellSyntax = "<>()$`\\\"'*?[]{}~#\n"

// Probe tells, before a debate, whether the command can run at all: it
// must be valid shell (sh -n), and the program of each of its simple
// commands (in a pipeline or a list, after variable assignments) must be
// found on PATH (or, with a slash, relative to Dir) and be executable.
// What only the run can tell is not checked: a command with quoting,
// expansions, grouping or redirections has only its first word checked,
// when that is a plain program name; a compound command (if, for, while,
// case) only its syntax; a relative path after a cd is not checked. The
// error is a *debate.UnavailableError of kind cannot_start, as running
// the command would give.
func (e *Exec) Probe(ctx context.Context) error {
	if strings.TrimSpace(e.Command) == "" {
		return nil
	}
	if err := e.probeSyntax(ctx); err != nil {
		return err
	}
	for _, prog := range e.programs() {
		path := prog
		if strings.Contains(path, "/") && !filepath.IsAbs(path) && e.Dir != "" {
			path = filepath.Join(e.Dir, path)
		}
		if _, err := exec.LookPath(path); err != nil {
			where := ""
			if strings.Contains(prog, "/") && !filepath.IsAbs(prog) {
				// A relative path is the working directory's: say which,
				// for a command written for another (config.json's
				// directory, a cron job's home).
				dir := e.Dir
				if dir == "" {
					dir, _ = os.Getwd()
				}
				where = ", looked for under " + dir
			}
			detail := fmt.Sprintf("the command %q cannot start (%v%s)", e.shown(), err, where)
			if prog != strings.Fields(e.Command)[0] {
				detail = fmt.Sprintf("the command %q cannot run %s (%v%s)", e.shown(), prog, err, where)
			}
			return &debate.UnavailableError{
				Kind: debate.UnavailableNoStart, Err: err, Detail: detail,
				Hint: "check the command of the exec: agent: that each program it runs exists, is executable and is on PATH",
			}
		}
	}
	return nil
}

// probeSyntax has sh read the command without running it (sh -n): a
// command that is not valid shell cannot start. A shell that cannot be
// started here is left for the run to report.
func (e *Exec) probeSyntax(ctx context.Context) error {
	cmd := exec.CommandContext(ctx, "sh", "-n", "-c", e.Command)
	cmd.Dir = e.Dir
	stderr := tailBuffer{max: maxStderrBytes}
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if err == nil || !errors.As(err, &ee) || ctx.Err() != nil {
		return nil
	}
	return &debate.UnavailableError{
		Kind: debate.UnavailableNoStart, Err: err,
		Detail: fmt.Sprintf("the command %q is not valid shell (sh -n: %v%s)", e.shown(), err, tail(stderr.String())),
		Hint:   "check the quoting and the operators of the exec: agent's command: it runs with sh -c",
	}
}

// programs returns the programs the command runs that can be checked
// before it runs (see Probe).
func (e *Exec) programs() []string {
	fields := strings.Fields(e.Command)
	if len(fields) == 0 {
		return nil
	}
	if strings.ContainsAny(e.Command, shellSyntax) || slices.ContainsFunc(fields, func(w string) bool { return compoundWords()[w] }) {
		if first := fields[0]; !shellWords()[first] && !strings.ContainsAny(first, "=|&;"+shellSyntax) {
			return []string{first}
		}
		return nil
	}
	// A plain list of pipelines: every simple command's first word after
	// its assignments is its program.
	cmd := e.Command
	for _, op := range []string{"&&", "||", "|", "&", ";"} {
		cmd = strings.ReplaceAll(cmd, op, "\n")
	}
	var out []string
	moved := false
	for _, simple := range strings.Split(cmd, "\n") {
		words := strings.Fields(simple)
		for len(words) > 0 && strings.Contains(words[0], "=") {
			words = words[1:]
		}
		if len(words) == 0 {
			continue
		}
		prog := words[0]
		switch {
		case prog == "cd" || prog == "pushd" || prog == "popd":
			moved = true
		case shellWords()[prog]:
		case moved && strings.Contains(prog, "/") && !filepath.IsAbs(prog):
			// Relative to a directory the command moved to.
		default:
			out = append(out, prog)
		}
	}
	return out
}

// Unavailable is the agent unavailable for a failed Probe.
func (e *Exec) Unavailable(err error) *debate.UnavailableError {
	var u *debate.UnavailableError
	if errors.As(err, &u) {
		return u
	}
	return nil
}

// execPrompt renders req as the prompt an exec: command reads in its
// input's text: the whole request, and how a command answers it (on
// standard output, see ParseOutput). These are the exec channel's words;
// an agent on the messenger is told to send a debate_turn message instead
// (debate.RenderRequest), which a command that hands the text to a model
// could not do.
func execPrompt(req *debate.TurnRequest) string {
	var b strings.Builder
	b.WriteString("Answer by printing your turn on standard output: a JSON object with your `position`, `counter_to`, `evidence_refs` (")
	b.WriteString(debate.EvidenceRefForms + "), `confidence_change` (-1, 0, +1), `tokens` (what your model spent, if you know it) and `text` ")
	b.WriteString("(your argument); the debate, round and role are this request's. Or print plain text: the first line is your position, ")
	b.WriteString("the rest your argument. Print nothing else.\n")
	if spec, ok := debate.LookupRole(req.Role); ok && spec.ReplyHint != "" {
		b.WriteString("\n" + spec.ReplyHint + "\n")
	}
	return debate.RenderRequestAnswering(req, b.String())
}

// Respond runs the command once for req.
func (e *Exec) Respond(ctx context.Context, req *debate.TurnRequest) (*Reply, error) {
	input, err := json.Marshal(struct {
		*debate.TurnRequest
		Text string `json:"text"`
	}{req, execPrompt(req)})
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, "sh", "-c", e.Command)
	cmd.Dir = e.Dir
	cmd.Env = append(os.Environ(), e.Env...)
	cmd.Env = append(cmd.Env,
		"PARLEY_DEBATE_ID="+req.DebateID, "PARLEY_REQUEST_ID="+req.RequestID,
		"PARLEY_ROUND="+strconv.Itoa(req.Round), "PARLEY_ROLE="+string(req.Role),
		"PARLEY_ATTEMPT="+strconv.Itoa(req.Attempt))
	cmd.Stdin = bytes.NewReader(input)
	stdout, stderr := limitedBuffer{max: MaxOutputBytes}, tailBuffer{max: maxStderrBytes}
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	guard, err := startGuard()
	if err != nil {
		return nil, &debate.UnavailableError{
			Kind: debate.UnavailableNoStart, Err: err,
			Detail: fmt.Sprintf("cannot start sh to run %q: %v", e.shown(), err),
			Hint:   "check that sh is on PATH",
		}
	}
	defer guard.release()
	// In the guard's group: killed with it, and by it if this process dies.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pgid: guard.pgid()}
	killGroup := func() error { return syscall.Kill(-guard.pgid(), syscall.SIGKILL) }
	cmd.Cancel = killGroup
	// Output past the limit stops the command at once (Write is only
	// called once the process has started).
	stdout.onOver = func() { _ = killGroup() }
	cmd.WaitDelay = 2 * time.Second
	if err := cmd.Start(); err != nil {
		return nil, &debate.UnavailableError{
			Kind: debate.UnavailableNoStart, Err: err,
			Detail: fmt.Sprintf("cannot start sh -c %q: %v", e.shown(), err),
			Hint:   "check that sh is on PATH and the agent's working directory exists",
		}
	}
	err = cmd.Wait()
	if errors.Is(err, exec.ErrWaitDelay) {
		// The command exited, but something it left in its process group
		// (a background child) still held its output: it ends with the
		// turn. (The group cannot have been recycled: its guard is in it.)
		_ = killGroup()
	}
	switch {
	case stdout.over:
		return nil, fmt.Errorf("%w: %q printed more than %d bytes", ErrBadOutput, e.shown(), MaxOutputBytes)
	case err == nil:
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case errors.Is(err, exec.ErrWaitDelay) && cmd.ProcessState.Success():
		// The command exited 0, but a child it left kept its stdout open:
		// what it printed is its answer.
	case noStart(err):
		// The shell ran, but not the command: not found (127) or not
		// executable (126).
		return nil, &debate.UnavailableError{
			Kind: debate.UnavailableNoStart, Err: err,
			Detail: fmt.Sprintf("the command %q cannot start (%v%s)", e.shown(), err, tail(stderr.String())),
			Hint:   "check the command of the exec: agent: that it exists, is executable and is on PATH",
		}
	default:
		return nil, fmt.Errorf("exec %q: %w%s", e.shown(), err, tail(stderr.String()))
	}
	return ParseOutput(stdout.Bytes(), req)
}

// maxShownCommand bounds the command as its failures show it: the user
// wrote it, and what failed (the last line of its standard error) must
// fit in the line that reports the agent unavailable.
const maxShownCommand = 61

// shown is the command as a message shows it, on one line and clipped.
func (e *Exec) shown() string { return clip.Line(e.Command, maxShownCommand) }

// noStart reports the exit statuses of sh -c for a command it could not
// run: 127 (not found) and 126 (not executable).
func noStart(err error) bool {
	var ee *exec.ExitError
	return errors.As(err, &ee) && (ee.ExitCode() == 127 || ee.ExitCode() == 126)
}

// tail is ": " and the last line of a command's standard error, or "".
func tail(s string) string {
	s = strings.TrimSpace(strings.ToValidUTF8(s, "\uFFFD"))
	if s == "" {
		return ""
	}
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return ": " + s
}

// ParseOutput reads what a command printed for req: a JSON object (the
// reply's fields, with debate_id, round and role filled in from req when
// absent) or plain text. The object is found as in a model's reply
// (turnObject): the whole output, else in a fenced ```json block or after
// or before prose, which then becomes the argument when the object has no
// "text"; <think>…</think> blocks are left out and bytes that are not
// UTF-8 read as U+FFFD. Output that is empty, a JSON value other than an
// object, JSON or a fenced block that holds no turn object, the request
// itself printed back (an object with the request's transcript,
// max_rounds or budget), an object that states no turn (none of position,
// claim or counter_to), or not text (NUL bytes) is ErrBadOutput. Its
// "tokens" is read as a server's usage count is (tokenCount): a fraction
// cut to a whole number, and one that is no count left for the
// coordinator to estimate.
func ParseOutput(out []byte, req *debate.TurnRequest) (*Reply, error) {
	// A byte order mark (a Windows tool, Python's utf-8-sig) is no text.
	trimmed := bytes.TrimSpace(bytes.TrimPrefix(bytes.TrimSpace(out), []byte("\ufeff")))
	if len(trimmed) == 0 {
		return nil, fmt.Errorf("%w: no output", ErrBadOutput)
	}
	if bytes.IndexByte(trimmed, 0) >= 0 {
		// Text has no NUL: this is a binary or a broken encoder.
		return nil, fmt.Errorf("%w: output is not text (it has NUL bytes)", ErrBadOutput)
	}
	body := strings.TrimSpace(replyText(string(trimmed)))
	if body == "" {
		return nil, fmt.Errorf("%w: no output but a <think> block", ErrBadOutput)
	}
	if body[0] == '[' && json.Valid([]byte(body)) {
		return nil, fmt.Errorf("%w: output is a JSON array, not an object", ErrBadOutput)
	}
	var fields map[string]json.RawMessage
	prose := ""
	if body[0] == '{' {
		// The whole output an object: the contract, taken as it is.
		if json.Unmarshal([]byte(body), &fields) != nil {
			fields = nil
		}
	}
	if fields == nil {
		var found bool
		var err error
		if fields, prose, found, err = turnObject(body); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrBadOutput, err)
		} else if !found {
			if body[0] == '{' {
				var v any
				err := json.Unmarshal([]byte(body), &v)
				return nil, fmt.Errorf("%w: output looks like JSON but is not an object: %v", ErrBadOutput, err)
			}
			if strings.HasPrefix(body, "```") {
				return nil, fmt.Errorf("%w: the output opens a fenced block but holds no JSON object with a \"position\": %s", ErrBadOutput, clip.Line(body, 301))
			}
		}
	}
	if fields != nil {
		if k := requestKey(fields); k != "" {
			return nil, fmt.Errorf("%w: the output is the turn request it was given (it has the request's %q), not a turn: the command must print its own answer", ErrBadOutput, k)
		}
		if !statesTurn(fields) {
			return nil, fmt.Errorf("%w: the output is a JSON object with no \"position\" (nor \"claim\" or \"counter_to\"), not a turn: %s", ErrBadOutput, clip.Line(body, 301))
		}
		// A count read as a server's usage is: one that is no count (a
		// string, 0 or less) is not reported, and the coordinator
		// estimates; never a turn lost to a "tokens": 12.0.
		if raw, ok := fields["tokens"]; ok {
			if n := tokenCount(raw); n > 0 {
				fields["tokens"], _ = json.Marshal(n)
			} else {
				delete(fields, "tokens")
			}
		}
		defaults := map[string]any{"debate_id": req.DebateID, "round": req.Round, "role": req.Role}
		var text string
		if prose != "" && (json.Unmarshal(fields["text"], &text) != nil || strings.TrimSpace(text) == "") {
			defaults["text"] = prose
			delete(fields, "text")
		}
		for k, v := range defaults {
			if _, ok := fields[k]; !ok {
				fields[k], _ = json.Marshal(v)
			}
		}
		raw, err := json.Marshal(fields)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrBadOutput, err)
		}
		return &Reply{Raw: raw}, nil
	}
	text := strings.ReplaceAll(body, "\r\n", "\n")
	position, rest, _ := strings.Cut(text, "\n")
	t := &debate.Turn{
		DebateID: req.DebateID, Round: req.Round, Role: req.Role,
		Position: strings.TrimSpace(position), Text: strings.TrimSpace(rest), EvidenceRefs: []string{},
	}
	if req.Role == debate.RoleAttacker && debate.PositionHash(t.Position) != debate.PositionHash(req.Position) {
		t.CounterTo = req.Position
	}
	return &Reply{Turn: t}, nil
}

// requestOnlyKeys are keys that every turn request has and no turn has.
var requestOnlyKeys = []string{"transcript", "max_rounds", "budget"}

// requestKey names a key of fields that only a turn request has ("" when
// none): output carrying one is the request the command was given, printed
// back (cat) or edited, whose position is the defender's and whose
// counter_to is empty, so that read as a turn it would concede.
func requestKey(fields map[string]json.RawMessage) string {
	for _, k := range requestOnlyKeys {
		if _, ok := fields[k]; ok {
			return k
		}
	}
	return ""
}

// turnStatingKeys are the keys by which an object states a turn: a
// position (or its alias claim), or a counter_to, empty to concede.
var turnStatingKeys = []string{"position", "claim", "counter_to"}

// statesTurn reports whether fields state a turn. An object with none of
// turnStatingKeys ({}, an API's {"error": …} printed by a wrapper, a
// refusal in "text") says nothing of the debate: read as a turn, its empty
// position and empty counter_to would be an attacker conceding.
func statesTurn(fields map[string]json.RawMessage) bool {
	for _, k := range turnStatingKeys {
		if _, ok := fields[k]; ok {
			return true
		}
	}
	return false
}

// limitedBuffer keeps the first max bytes written and notes any excess,
// calling onOver (if set) the first time. It holds its bytes.Buffer in a
// field rather than embedding it: an embedded Buffer's ReadFrom would be
// what io.Copy (and so os/exec) calls, bypassing the limit.
type limitedBuffer struct {
	buf    bytes.Buffer
	max    int
	over   bool
	onOver func()
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.buf.Len(); room < len(p) {
		if !b.over && b.onOver != nil {
			b.onOver()
		}
		b.over = true
		if room > 0 {
			b.buf.Write(p[:room])
		}
		return len(p), nil
	}
	return b.buf.Write(p)
}

// Bytes returns what was kept.
func (b *limitedBuffer) Bytes() []byte { return b.buf.Bytes() }

// String returns what was kept.
func (b *limitedBuffer) String() string { return b.buf.String() }

// tailBuffer keeps the last max bytes written to it: what a command says
// last on its standard error is why it failed, after whatever warnings
// and progress it printed before.
type tailBuffer struct {
	buf []byte
	max int
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	n := len(p)
	if len(p) > b.max {
		p = p[len(p)-b.max:]
	}
	if drop := len(b.buf) + len(p) - b.max; drop > 0 {
		b.buf = append(b.buf[:0], b.buf[drop:]...)
	}
	b.buf = append(b.buf, p...)
	return n, nil
}

// String returns what was kept.
func (b *tailBuffer) String() string { return string(b.buf) }
