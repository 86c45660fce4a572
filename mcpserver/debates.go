package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/transcripts"
)

// DebateStarter starts the debate a debate_start call describes and returns
// its id without waiting for the verdict. It validates the request as
// "parley debate start" validates its flags. AppStarter, over the service
// layer, writes the session and runs the debate in a detached process.
type DebateStarter interface {
	StartDebate(ctx context.Context, req StartInput) (StartOutput, error)
}

// StartInput is the input of debate_start: the flags of "parley debate
// start".
type StartInput struct {
	Layer    string   `json:"layer" jsonschema:"spec, plan or verify (sets the default budget)"`
	Topic    string   `json:"topic" jsonschema:"the question debated"`
	Position string   `json:"position,omitempty" jsonschema:"the defender's opening position (default: the topic)"`
	Scope    string   `json:"scope,omitempty" jsonschema:"what the debate covers, in a line"`
	Agents   []string `json:"agents" jsonschema:"one ROLE=SPEC per participant, attackers in speaking order; SPEC is script:FILE, exec:COMMAND, openai:MODEL or @NAME (a running agent, such as one that joined with debate_join)"`
	// Context are files handed to every turn (each at most 256 KiB).
	Context           []string `json:"context,omitempty" jsonschema:"files handed to every turn"`
	Workspace         string   `json:"workspace,omitempty" jsonschema:"the directory evidence paths are checked under (default: the server's working directory)"`
	MaxRounds         *int     `json:"max_rounds,omitempty" jsonschema:"rounds at most (default: the layer's)"`
	MaxTokens         *int     `json:"max_tokens,omitempty" jsonschema:"tokens at most, all turns together"`
	MaxTokensPerRound *int     `json:"max_tokens_per_round,omitempty" jsonschema:"tokens each agent may spend per round"`
	Timeout           string   `json:"timeout,omitempty" jsonschema:"wall-clock budget, e.g. 90s or 2m"`
	ConvergenceRounds *int     `json:"convergence_rounds,omitempty" jsonschema:"consecutive rounds a pattern must hold to end the debate"`
}

// StartOutput is the result of debate_start.
type StartOutput struct {
	DebateID string `json:"debate_id"`
	// PID is the process running the debate, when it runs in one.
	PID int `json:"pid,omitempty"`
}

// IDInput names a debate.
type IDInput struct {
	ID string `json:"id" jsonschema:"the debate id, as debate_start returned it"`
}

// StatusOutput is the result of debate_status: what "parley debate status
// --json" prints, and for a debate no coordinator runs, what continues it.
type StatusOutput struct {
	transcripts.Status
	// Next says what continues an interrupted debate (debate_resume),
	// or why it cannot be; empty while it runs and once it is closed.
	Next string `json:"next,omitempty" jsonschema:"for an interrupted debate: what continues it (debate_resume), or why it cannot be"`
}

// TranscriptOutput is the result of transcript_show.
type TranscriptOutput struct {
	// Summary is the debate's one JSON view (transcripts' listing of it).
	debate.Summary
	State  transcripts.State `json:"state"`
	Record string            `json:"record,omitempty"`
	// Intact is the hash chain's verification; BadLine names the first
	// line that fails it.
	Intact  bool `json:"intact"`
	Events  int  `json:"events"`
	BadLine int  `json:"bad_line,omitempty"`
	// Tampered is the whole audit, as "parley transcripts show" exits 3
	// on it: the chain, or a file of the debate (session.json,
	// verdict.json, its vault page, its record) checked against its
	// seal, does not verify. Integrity is that in a few words, as
	// debate_status and "debate list --json" word it ("verified",
	// "TAMPERED at line 4", "TAMPERED: verdict.json differs"); Problem
	// says what differs.
	Tampered  bool   `json:"tampered" jsonschema:"the debate does not verify against its seal (parley transcripts show exits 3): do not rely on it"`
	Integrity string `json:"integrity,omitempty"`
	Problem   string `json:"problem,omitempty"`
	Markdown  string `json:"markdown" jsonschema:"the readable transcript"`
}

func (s *Server) addDebateTools() {
	addTool(s, &mcp.Tool{
		Name:  "debate_start",
		Title: "Start a debate",
		Description: "Start a budgeted debate in the background and return its id (like \"parley debate start\"). " +
			"Give one defender and at least one attacker as ROLE=SPEC; an agent that joined with debate_join " +
			"takes part as ROLE=@NAME. Follow it with debate_status.",
		Annotations: &mcp.ToolAnnotations{OpenWorldHint: ptr(false)},
	}, s.debateStart)
	addTool(s, &mcp.Tool{
		Name:        "debate_status",
		Title:       "Where a debate stands",
		Description: "Running, closed or interrupted; round, tokens and time against the budget; the verdict and record once closed.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, s.debateStatus)
	addTool(s, &mcp.Tool{
		Name:  "debate_resume",
		Title: "Continue an interrupted debate",
		Description: "Continue a debate whose coordinator stopped (debate_status says interrupted) in the background, " +
			"like \"parley debate resume\": requests are asked again under the same ids, answers already sent count once. " +
			"Its running agents (@NAME) must be joined. Follow it with debate_status.",
		Annotations: &mcp.ToolAnnotations{OpenWorldHint: ptr(false)},
	}, s.debateResume)
	addTool(s, &mcp.Tool{
		Name:        "transcript_show",
		Title:       "Read a debate's transcript",
		Description: "The debate's transcript as readable Markdown, with the verification of its hash chain.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, s.transcriptShow)
}

func ptr[T any](v T) *T { return &v }

func (s *Server) debateStart(ctx context.Context, _ *mcp.CallToolRequest, in StartInput) (*mcp.CallToolResult, StartOutput, error) {
	if s.cfg.Starter == nil {
		return nil, StartOutput{}, fmt.Errorf("debate_start is %w (run %s)", ErrUnavailable, s.commandLine("debate", "start"))
	}
	for _, f := range []struct{ name, v string }{{"topic", in.Topic}, {"position", in.Position}, {"scope", in.Scope}} {
		if err := checkSize(f.name, f.v); err != nil {
			return nil, StartOutput{}, err
		}
	}
	out, err := s.cfg.Starter.StartDebate(ctx, in)
	if err != nil {
		return nil, StartOutput{}, s.toolError(err)
	}
	return nil, out, nil
}

// resolveDebate is the debate the argument key of tool names, as the
// command line reads it: the id, or a unique prefix or part of one
// (app.MatchDebate).
func (s *Server) resolveDebate(tool, key, arg string) (string, error) {
	if strings.TrimSpace(arg) == "" {
		return "", invalidf("%s needs %s: a debate id, or a unique prefix of one", tool, key)
	}
	root := s.cfg.Transcripts.Dir()
	if debate.ValidateID(arg) == nil {
		if _, err := os.Stat(filepath.Join(root, transcripts.Dir, arg)); err == nil {
			return arg, nil
		}
	}
	ids, err := app.DebateIDsIn(filepath.Join(root, transcripts.Dir))
	if err != nil {
		return "", err
	}
	id, err := app.MatchDebate(arg, ids, root)
	var e *app.Error
	if errors.As(err, &e) {
		return "", invalidf("%s", e.Format(s.inputName))
	}
	return id, err
}

// storeError turns the transcripts' errors into one line that says what to
// do, as the CLI does.
func (s *Server) storeError(err error, id string) error {
	var te *transcripts.TamperError
	switch {
	case errors.Is(err, transcripts.ErrNotFound):
		return invalidf("no debate %s (see %s)", id, s.commandLine("debate", "list"))
	case errors.As(err, &te):
		return fmt.Errorf("%w; it cannot be resumed (%s)", err, s.commandLine("transcripts", "verify", id))
	}
	return err
}

func (s *Server) debateStatus(ctx context.Context, _ *mcp.CallToolRequest, in IDInput) (*mcp.CallToolResult, StatusOutput, error) {
	id, err := s.resolveDebate("debate_status", "id", in.ID)
	if err != nil {
		return nil, StatusOutput{}, err
	}
	out, err := s.cfg.Transcripts.Status(id)
	if err != nil {
		return nil, StatusOutput{}, s.storeError(err, id)
	}
	out.Integrity = "unreadable"
	if v, err := s.audit(ctx, id); err == nil {
		out.Integrity, out.ResumeRefused = v.Integrity.Label(), v.Integrity.RefusesResume()
	}
	return nil, StatusOutput{Status: *out, Next: s.nextStep(out.Continuation(), id)}, nil
}

// nextStep words what continues debate id (transcripts.Continuation) for
// an MCP client: the tool to call, or why there is none; "" for a debate
// that runs or is closed.
func (s *Server) nextStep(c transcripts.Continuation, id string) string {
	call := fmt.Sprintf("debate_resume {\"id\": %q}", id)
	switch c {
	case transcripts.ContinueResume:
		return "no coordinator runs this debate (it was stopped or killed): " + call + " continues it, asking again the turns not yet answered"
	case transcripts.ContinueClose:
		return "the coordinator stopped after the verdict, before filing it: " + call + " finishes closing it"
	case transcripts.ContinueRefused:
		return "no coordinator runs this debate, and it cannot be resumed: its files do not verify (transcript_show says what differs)"
	}
	return ""
}

func (s *Server) debateResume(ctx context.Context, _ *mcp.CallToolRequest, in IDInput) (*mcp.CallToolResult, StartOutput, error) {
	r, ok := s.cfg.Starter.(DebateResumer)
	if !ok {
		return nil, StartOutput{}, fmt.Errorf("debate_resume is %w (run %s)", ErrUnavailable, s.commandLine("debate", "resume", in.ID))
	}
	id, err := s.resolveDebate("debate_resume", "id", in.ID)
	if err != nil {
		return nil, StartOutput{}, err
	}
	out, err := r.ResumeDebate(ctx, id)
	if err != nil {
		return nil, StartOutput{}, s.resumeError(err, id)
	}
	return nil, out, nil
}

// resumeError words why debate_resume did not continue debate id, with
// the call that helps.
func (s *Server) resumeError(err error, id string) error {
	var (
		td *app.TamperedError
		nr *app.NotRunningError
		re *app.RoleError
	)
	switch {
	case errors.Is(err, transcripts.ErrBusy):
		return invalidf("debate %s is running: a coordinator holds it already (follow it with debate_status)", id)
	case errors.Is(err, debate.ErrClosed):
		return invalidf("debate %s is closed: there is nothing to resume (debate_status has its verdict, transcript_show the debate)", id)
	case errors.As(err, &td):
		return fmt.Errorf("debate %s cannot be resumed: its files do not verify: %s (transcript_show says more)", id, td.Trouble)
	case errors.As(err, &nr):
		return fmt.Errorf("agent %s of debate %s is not running: join it again (debate_join with name %q, in its role), then call debate_resume", nr.Agent, id, nr.Agent)
	case errors.As(err, &re):
		return invalidf("%v: the debate names it %s=@%s; debate_leave it, debate_join it again with role %s, then call debate_resume", err, re.Asked, re.Agent, re.Asked)
	}
	return s.toolError(s.storeError(err, id))
}

func (s *Server) transcriptShow(ctx context.Context, _ *mcp.CallToolRequest, in IDInput) (*mcp.CallToolResult, TranscriptOutput, error) {
	var out TranscriptOutput
	id, err := s.resolveDebate("transcript_show", "id", in.ID)
	if err != nil {
		return nil, out, err
	}
	in.ID = id
	md, v, err := s.transcript(ctx, in.ID)
	if err != nil {
		return nil, out, s.storeError(err, in.ID)
	}
	sum, err := s.cfg.Transcripts.Summary(in.ID)
	if err != nil {
		return nil, out, s.storeError(err, in.ID)
	}
	out = TranscriptOutput{Summary: sum.Summary, State: sum.State, Record: sum.Record, Markdown: string(md)}
	ig := v.Integrity
	out.Intact, out.Events, out.BadLine, out.Problem = ig.Intact, ig.Events, ig.BadLine, ig.Problem
	out.Tampered, out.Integrity = ig.Tampered(), ig.Label()
	if out.Tampered {
		out.Problem = ig.Trouble()
	}
	return textResult(out.Markdown), out, nil
}

// transcript reads a debate's transcript, audits every file of the debate
// against its seal (as "parley transcripts show" does: a tampered one
// renders with a banner saying what differs) and renders it.
func (s *Server) transcript(ctx context.Context, id string) ([]byte, *transcripts.View, error) {
	v, err := s.audit(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	if s.cfg.Untrusted {
		v.RedactEvidence()
	}
	return transcripts.RenderMarkdownView(v), v, nil
}

// audit is debate id's view, every file checked against its seal.
func (s *Server) audit(ctx context.Context, id string) (*transcripts.View, error) {
	w := transcripts.Witnesses{Vault: s.cfg.Consensus.Vault(), Records: s.cfg.Consensus, PublicKey: s.cfg.SealKey}
	t, err := s.cfg.Transcripts.Audit(ctx, id, w)
	if err != nil {
		return nil, err
	}
	return transcripts.NewView(t), nil
}
