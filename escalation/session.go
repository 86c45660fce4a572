package escalation

import (
	"crypto/sha256"
	"encoding/base32"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/gating"
	"github.com/parleyhq/parley/internal/clip"
	"github.com/parleyhq/parley/internal/regfile"
	"github.com/parleyhq/parley/vocab"
)

// Bounds of the evidence handed to the agents as context.
const (
	MaxEvidenceFileBytes  = 64 << 10
	MaxEvidenceTotalBytes = 192 << 10
)

// DebateID is the id of the debate that escalates r: the usual
// <yyyymmdd>-verify-<slug>-<6 base32> form, with the date of the record's
// timestamp, the slug of "task <id>", and a suffix derived from the task id
// and the timestamp instead of drawn at random. The same record always
// names the same debate, which is how a crash between a debate and its
// ledger line is recovered without debating twice.
func DebateID(r *Record) string {
	sum := sha256.Sum256([]byte("parley/escalation/" + r.TaskID + "\x00" + r.Timestamp))
	suffix := strings.ToLower(base32.StdEncoding.EncodeToString(sum[:5]))[:6]
	return fmt.Sprintf("%s-%s-%s-%s", r.Time().UTC().Format("20060102"), debate.LayerVerify, vocab.SlugOr("task "+r.TaskID, 32), suffix)
}

// AttemptID is the debate id of the attempt-th debate of r: DebateID for
// the first; a retry of a record held as unavailable (--retry-unavailable)
// is a new debate, whose id is derived from the attempt too.
func AttemptID(r *Record, attempt int) string {
	if attempt <= 1 {
		return DebateID(r)
	}
	sum := sha256.Sum256([]byte(fmt.Sprintf("parley/escalation/%s\x00%s\x00%d", r.TaskID, r.Timestamp, attempt)))
	suffix := strings.ToLower(base32.StdEncoding.EncodeToString(sum[:5]))[:6]
	return fmt.Sprintf("%s-%s-%s-%s", r.Time().UTC().Format("20060102"), debate.LayerVerify, vocab.SlugOr("task "+r.TaskID, 32), suffix)
}

// Topic is the question a record's debate settles, one per task: a later
// escalation of the same task files a record that supersedes the earlier.
func Topic(r *Record) string { return "Closure of task " + r.TaskID }

// Position is the defender's opening position: the task's claims, as
// stated. "proceed" requires this very position to stand, so it must be
// one a defender can restate: claims longer together than a turn's
// position (debate.MaxPositionLen) are named instead, as the list the
// context holds.
func Position(r *Record) string {
	if len(r.Claims) == 0 {
		return fmt.Sprintf("Task %s is complete as it was closed", r.TaskID)
	}
	p := fmt.Sprintf("Task %s is complete as claimed: %s", r.TaskID, strings.Join(r.Claims, "; "))
	if utf8.RuneCountInString(p) <= debate.MaxPositionLen {
		return p
	}
	return fmt.Sprintf("Task %s is complete as claimed: all %d claims listed in the context (claims (the defender's case)) hold", r.TaskID, len(r.Claims))
}

// SelfCritique is the gate's input built from a record: the claims as the
// answer, the verifier's reasons as the critique, its confidence, and the
// evidence paths as references. A DRIFT without reasons is criticised for
// giving none.
func SelfCritique(r *Record) gating.SelfCritique {
	critique := strings.Join(r.Reasons, "\n")
	if strings.TrimSpace(critique) == "" {
		critique = "The verifier flagged DRIFT without giving a reason."
	}
	return gating.SelfCritique{
		Layer:           debate.LayerVerify,
		Question:        fmt.Sprintf("Do the closure claims of task %s hold?", r.TaskID),
		FinalAnswer:     strings.Join(r.Claims, "\n"),
		Critique:        critique,
		FinalConfidence: r.Confidence,
		EvidenceRefs:    append([]string(nil), r.EvidencePaths...),
	}
}

// Participants are the debate's attacker and defender for the agent specs
// given: "@NAME" names a running agent; an adapter spec gets the name a
// debate gives the agents it starts (Attacker1-<suffix>, Defender-<suffix>).
func Participants(id, defender, attacker string) ([]debate.Participant, error) {
	if defender == "" || attacker == "" {
		return nil, ErrNoAgents
	}
	suffix := id[strings.LastIndexByte(id, '-')+1:]
	var out []debate.Participant
	for _, p := range []struct {
		role       debate.Role
		spec, name string
	}{{debate.RoleAttacker, attacker, "Attacker1-" + suffix}, {debate.RoleDefender, defender, "Defender-" + suffix}} {
		sp, err := agent.ParseSpec(p.spec)
		if err != nil {
			return nil, fmt.Errorf("escalation.%s: %w", p.role, err)
		}
		name := p.name
		if sp.Kind == agent.KindRegistered {
			name = sp.Arg
		}
		out = append(out, debate.Participant{Name: name, Role: p.role, Agent: sp.String()})
	}
	if out[0].Name == out[1].Name {
		return nil, fmt.Errorf("escalation: the defender and the attacker are the same agent %s", out[0].Name)
	}
	return out, nil
}

// Session builds the verify-layer debate of r: the claims as the defender's
// opening position; the record, the claims, the verifier's reasons and the
// evidence files (read under workspace, bounded) as context for both
// sides. workspace must be absolute.
func Session(r *Record, defender, attacker, workspace string, b debate.ConsensusBudget, now time.Time) (*debate.DebateSession, error) {
	return sessionOf(DebateID(r), r, defender, attacker, workspace, b, now)
}

func sessionOf(id string, r *Record, defender, attacker, workspace string, b debate.ConsensusBudget, now time.Time) (*debate.DebateSession, error) {
	ps, err := Participants(id, defender, attacker)
	if err != nil {
		return nil, err
	}
	s := &debate.DebateSession{
		ID: id, Topic: Topic(r), Layer: debate.LayerVerify, Position: Position(r),
		Scope:        fmt.Sprintf("DRIFT verdict of %s on task %s at %s", orUnknown(r.ModelID), r.TaskID, r.Timestamp),
		Participants: ps, Budget: b, Created: now.UTC().Format(vocab.TimeLayout),
		Coordinator: debate.CoordinatorName(id), Workspace: workspace,
		Context: Context(r, workspace),
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s, nil
}

func orUnknown(s string) string {
	if s == "" {
		return "the verifier"
	}
	return s
}

// Context is what both sides are handed: the verifier's record, the claims
// (the defender's case), the reasons and evidence paths (the attacker's
// case), and the evidence files' content.
func Context(r *Record, workspace string) []debate.ContextItem {
	var b strings.Builder
	fmt.Fprintf(&b, "task_id: %s\ntimestamp: %s\nverdict: %s\n", r.TaskID, r.Timestamp, r.Verdict)
	if r.Confidence != nil {
		fmt.Fprintf(&b, "confidence: %.2f\n", *r.Confidence)
	}
	fmt.Fprintf(&b, "priority: %s\nmodel_id: %s\n", orDash(string(r.Priority)), orDash(r.ModelID))
	items := []debate.ContextItem{{Kind: "text", Ref: "verifier record", Text: b.String()}}
	items = append(items, debate.ContextItem{Kind: "text", Ref: "claims (the defender's case)", Text: bullets(r.Claims, "(the record states no claims)")})
	attack := bullets(r.Reasons, "(the verifier gave no reasons)")
	if len(r.EvidencePaths) > 0 {
		attack += "\nEvidence paths named by the record:\n" + bullets(r.EvidencePaths, "")
	}
	items = append(items, debate.ContextItem{Kind: "text", Ref: "verifier reasons (the attacker's case)", Text: attack})
	var root *os.Root
	if workspace != "" {
		root, _ = os.OpenRoot(workspace)
	}
	if root != nil {
		defer root.Close()
	}
	total := 0
	for _, p := range r.EvidencePaths {
		text := evidenceText(root, workspace, p, MaxEvidenceTotalBytes-total)
		total += len(text)
		items = append(items, debate.ContextItem{Kind: "file", Ref: p, Text: text})
	}
	return items
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func bullets(items []string, none string) string {
	if len(items) == 0 {
		return none + "\n"
	}
	var b strings.Builder
	for _, it := range items {
		b.WriteString("- " + it + "\n")
	}
	return b.String()
}

// LocalPath makes an evidence path relative to the workspace: an absolute
// path inside it is cut to its part under it; a path with a line suffix
// (path:line, path:from-to) keeps it. ok is false for a path outside.
func LocalPath(workspace, p string) (rel string, ok bool) {
	if filepath.IsAbs(p) {
		if workspace == "" {
			return "", false
		}
		r, err := filepath.Rel(workspace, p)
		if err != nil || !filepath.IsLocal(r) {
			return "", false
		}
		return filepath.ToSlash(r), true
	}
	return p, filepath.IsLocal(filepath.FromSlash(stripLines(p)))
}

// stripLines drops a :line or :from-to suffix.
func stripLines(p string) string {
	if i := strings.LastIndexByte(p, ':'); i > 0 {
		tail := p[i+1:]
		if tail != "" && strings.Trim(tail, "0123456789-") == "" {
			return p[:i]
		}
	}
	return p
}

func evidenceText(root *os.Root, workspace, p string, room int) string {
	rel, ok := LocalPath(workspace, p)
	switch {
	case !ok:
		return "(outside the workspace: not read)"
	case root == nil:
		return "(no workspace: not read)"
	case room <= 0:
		return "(not read: the evidence handed to the debate is already at its limit)"
	}
	// Non-blocking: a named pipe opens at once instead of waiting for a
	// writer, and is then refused as not a regular file.
	f, _, err := regfile.Open(root.OpenFile, filepath.FromSlash(stripLines(rel)))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "(missing: no such file under the workspace)"
	case errors.Is(err, regfile.ErrNotRegular):
		return "(not a regular file: not read)"
	case err != nil:
		return "(unreadable: " + clip.Line(err.Error(), 201) + ")"
	}
	defer f.Close()
	limit := min(MaxEvidenceFileBytes, room)
	data, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err != nil {
		return "(unreadable: " + clip.Line(err.Error(), 201) + ")"
	}
	if len(data) > limit {
		return strings.ToValidUTF8(string(data[:limit]), "") + fmt.Sprintf("\n… (cut at %d bytes)", limit)
	}
	return strings.ToValidUTF8(string(data), "\uFFFD")
}
