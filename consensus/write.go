package consensus

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/clip"
	"github.com/parleyhq/parley/vault"
)

// cellRunes bounds a position quoted in the rounds table.
const cellRunes = 160

// What a record holds at most, so that every debate can be filed: a
// record too large for the vault would fail its filing, and every resume
// of it, for good.
const (
	// maxEvidenceLinesBytes bounds the evidence_lines of a frontmatter
	// (vault.MaxFrontmatterBytes bounds the whole of it).
	maxEvidenceLinesBytes = 32 << 10
	// maxRecordBody bounds a record's body: the page less the most a
	// frontmatter holds.
	maxRecordBody = vault.MaxPageBytes - vault.MaxFrontmatterBytes - 4<<10
)

// bodyLimits are how much of a long debate a record's body lists: the
// rounds of the rounds table and of a partial transcript (the first and
// the last half), and the evidence references; 0 lists all. A body that
// would pass maxRecordBody is rendered again with the next, smaller
// limits, and says what it left out.
var bodyLimits = []struct{ rounds, evidence int }{{0, 0}, {40, 400}, {4, 40}}

// recordPlace is what filing decides about a record before it is written:
// its name and its place in its question's chain.
type recordPlace struct {
	name         string
	status       Status
	created      string
	supersedes   string
	supersededBy string
	// overtakenBy is the question's current record, from a debate that
	// started after this one (overtaken): it stands, and this record is
	// filed superseded by it.
	overtakenBy string
}

// validateOutcome checks what filing needs of an Outcome.
func validateOutcome(o *debate.Outcome) error {
	switch {
	case o == nil:
		return fmt.Errorf("%w: nil outcome", ErrIncompleteOutcome)
	case o.Session == nil:
		return fmt.Errorf("%w: debate %q has no session", ErrIncompleteOutcome, o.DebateID)
	}
	if err := debate.ValidateID(o.DebateID); err != nil {
		return fmt.Errorf("%w: %v", ErrIncompleteOutcome, err)
	}
	if o.Session.ID != "" && o.Session.ID != o.DebateID {
		return fmt.Errorf("%w: outcome of %q carries the session of %q", ErrIncompleteOutcome, o.DebateID, o.Session.ID)
	}
	if _, err := debate.ParseVerdict(string(o.Verdict)); err != nil {
		return fmt.Errorf("%w: %v", ErrIncompleteOutcome, err)
	}
	if !o.Verdict.Filed() {
		return fmt.Errorf("%w: debate %s ended %s: an agent could not be reached, so nothing was debated", ErrNotFiled, o.DebateID, o.Verdict)
	}
	if _, err := debate.ParseLayer(string(o.Session.Layer)); err != nil {
		return fmt.Errorf("%w: %v", ErrIncompleteOutcome, err)
	}
	if strings.TrimSpace(o.Session.Topic) == "" {
		return fmt.Errorf("%w: debate %q has no topic", ErrIncompleteOutcome, o.DebateID)
	}
	return nil
}

// outcomeAction is the outcome's action, or the one its verdict gives
// (debate.ActionFor) when the outcome carries none.
func outcomeAction(o *debate.Outcome) debate.Action {
	switch o.Action {
	case debate.ActionProceed, debate.ActionEscalate:
		return o.Action
	}
	return debate.ActionFor(o.Verdict, o.FinalPosition)
}

// renderRecord builds a record's frontmatter and body (SPEC §6).
//
// What each turn counted as is the debate's (Outcome.Decisions); an
// outcome that does not carry it has it worked out by debate.Analyze.
func renderRecord(o *debate.Outcome, pl recordPlace, now time.Time) (vault.Frontmatter, []byte) {
	o = debate.Analyze(o)
	s := o.Session
	layer := string(debate.Layer(strings.ToLower(string(s.Layer))))
	closed := now
	if t, err := time.Parse(time.RFC3339Nano, o.Closed); err == nil {
		closed = t
	}
	var names []string
	for _, p := range s.Participants {
		names = append(names, p.Name)
	}
	hash := debate.PositionHash(o.FinalPosition)
	final := strings.TrimSpace(o.FinalPosition)
	if hash == "" {
		final = ""
	}
	fm := vault.Frontmatter{
		{Key: "type", Value: "consensus"},
		{Key: "layer", Value: layer},
		{Key: "verdict", Value: string(o.Verdict)},
		{Key: "date", Value: vault.Date(closed.UTC().Format(time.DateOnly))},
		{Key: "participants", Value: names},
		{Key: "topic", Value: s.Topic},
		{Key: "related", Value: []string{"[[" + o.DebateID + "]]"}},
		{Key: "status", Value: string(pl.status)},
		{Key: "created", Value: pl.created},
		{Key: "updated", Value: now.UTC().Format(timeFormat)},
		{Key: "tags", Value: []string{"consensus", layer}},
		{Key: "debate_id", Value: o.DebateID},
		{Key: "debate_started", Value: orNil(s.Created)},
		{Key: "action", Value: string(outcomeAction(o))},
		{Key: "final_position", Value: orNil(clip.Runes(final, maxStoredPosition))},
		{Key: "final_position_hash", Value: orNil(hash)},
		{Key: "supersedes", Value: wikiOrNil(pl.supersedes)},
		{Key: "superseded_by", Value: wikiOrNil(pl.supersededBy)},
	}
	if pl.overtakenBy != "" {
		fm = append(fm, vault.Field{Key: "overtaken_by", Value: wikiOrNil(pl.overtakenBy)})
	}
	lines, untracked := evidenceLines(o)
	if len(lines) > 0 {
		fm = append(fm, vault.Field{Key: "evidence_lines", Value: lines})
	}
	if f := o.Filing; f != nil && f.Head != "" {
		// The transcript this record was filed from, as its seal checks it.
		fm = append(fm, vault.Field{Key: debate.FrontmatterHead, Value: f.Head},
			vault.Field{Key: debate.FrontmatterEvents, Value: f.Events},
			vault.Field{Key: debate.FrontmatterSessionHash, Value: f.SessionHash})
	}
	var body []byte
	for _, l := range bodyLimits {
		body = renderBody(o, final, pl.overtakenBy, bodyDetail{rounds: l.rounds, evidence: l.evidence, tracked: len(lines), untracked: untracked})
		if len(body) <= maxRecordBody {
			break
		}
	}
	return fm, body
}

// bodyDetail is what renderBody lists of a long debate (bodyLimits), and
// how many of its line references evidence_lines holds (tracked) and left
// out (untracked).
type bodyDetail struct {
	rounds, evidence   int
	tracked, untracked int
}

// evidenceLines are the line and range refs the debate cited that were
// found, each as "<sha256 of the lines> <ref>", once per ref, in the order
// first cited: what "parley vault lint" compares with the workspace to find
// stale records. A ref cited in several turns holds what its latest check
// found: a spec edited during the debate (a proposer adding the mitigation
// a critic asked for, and citing the same lines again) is the spec the
// record was filed on, and lines gone by the latest check hold nothing.
// They hold at most maxEvidenceLinesBytes; untracked counts the refs left
// out, which the record's body says.
func evidenceLines(o *debate.Outcome) (lines []string, untracked int) {
	var order []string
	latest := map[string]debate.EvidenceCheck{}
	for _, t := range o.Turns {
		for _, ev := range t.Evidence {
			if _, ok := latest[ev.Ref]; !ok {
				order = append(order, ev.Ref)
			}
			latest[ev.Ref] = ev
		}
	}
	size := 0
	for _, ref := range order {
		ev := latest[ref]
		if ev.Hash == "" || !hexRE().MatchString(ev.Hash) || strings.ContainsAny(ref, "\n\r") {
			continue
		}
		line := ev.Hash + " " + ref
		// A YAML list item takes its line and some quoting more.
		if size += len(line) + 8; size > maxEvidenceLinesBytes {
			untracked++
			continue
		}
		lines = append(lines, line)
	}
	return lines, untracked
}

var hexRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f]{64}$`) })

// timeFormat is how created and updated are written: RFC 3339, UTC, ms.
const timeFormat = "2006-01-02T15:04:05.000Z07:00"

func orNil(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func wikiOrNil(name string) any {
	if name == "" {
		return nil
	}
	return "[[" + name + "]]"
}

func renderBody(o *debate.Outcome, final, overtakenBy string, d bodyDetail) []byte {
	var b strings.Builder
	s := o.Session
	fmt.Fprintf(&b, "# %s\n\n", orText(inline(s.Topic, 0), "(untitled)"))

	b.WriteString("## Final Position\n\n")
	if final != "" {
		fmt.Fprintf(&b, "> %s\n\n", inline(final, 0))
	} else {
		b.WriteString("_No position was agreed._\n\n")
	}
	fmt.Fprintf(&b, "Verdict **%s** (rule `%s`), action **%s**.\n\n", o.Verdict, orText(string(o.Rule), "none"), outcomeAction(o))
	if overtakenBy != "" {
		link := code(overtakenBy)
		if vault.Linkable(overtakenBy) {
			link = "[[" + overtakenBy + "]]"
		}
		fmt.Fprintf(&b, "This debate started before the debate of %s, which was filed first: %s answers the question, and this record was filed superseded by it.\n\n", link, link)
	}

	b.WriteString("## Key Rounds Summary\n\n")
	writeRounds(&b, o, d.rounds)

	b.WriteString("## Evidence References\n\n")
	writeEvidence(&b, o, d.evidence)
	if d.untracked > 0 {
		fmt.Fprintf(&b, "_`parley vault lint` checks the first %d line reference(s) for staleness; the other %d are not tracked (a record keeps at most %d KiB of them)._\n\n",
			d.tracked, d.untracked, maxEvidenceLinesBytes>>10)
	}

	b.WriteString("## Rationale\n\n")
	if r := strings.TrimSpace(o.Reason); r != "" {
		fmt.Fprintf(&b, "%s\n\n", inline(r, 0))
	}
	fmt.Fprintf(&b, "The debate closed by the rule `%s` after %d round(s), %d token(s) and %s. Participants: %s. The whole transcript is [[%s]].\n\n",
		orText(string(o.Rule), "none"), o.Rounds, o.Tokens, seconds(o.ElapsedMs), participantList(s), o.DebateID)

	switch o.Verdict {
	case debate.Deadlock:
		b.WriteString("## Positions\n\n")
		writePositions(&b, o)
		b.WriteString("## Deadlock Analysis\n\n")
		writeDeadlock(&b, o)
	case debate.BudgetExhausted:
		b.WriteString("## Last Positions\n\n")
		writePositions(&b, o)
		b.WriteString("## Exhaustion Analysis\n\n")
		writeExhaustion(&b, o)
	case debate.Timeout:
		b.WriteString("## Last Positions\n\n")
		writePositions(&b, o)
		b.WriteString("## Partial Transcript\n\n")
		writePartial(&b, o, d.rounds)
	}
	return []byte(b.String())
}

func participantList(s *debate.DebateSession) string {
	var parts []string
	for _, p := range s.Participants {
		parts = append(parts, fmt.Sprintf("%s (%s)", inline(p.Name, 60), p.Role))
	}
	return orText(strings.Join(parts, ", "), "none")
}

func seconds(ms int64) string { return fmt.Sprintf("%.1f s", float64(ms)/1000) }

// roundTurns groups the turns and forfeits by round, in order.
type roundTurns struct {
	round    int
	turns    []debate.TurnRecord
	forfeits []debate.ForfeitEvent
	// elided, in what elide returns, stands for the rounds it left out.
	elided int
}

func byRound(o *debate.Outcome) []roundTurns {
	idx := map[int]int{}
	var out []roundTurns
	get := func(r int) *roundTurns {
		i, ok := idx[r]
		if !ok {
			i = len(out)
			idx[r] = i
			out = append(out, roundTurns{round: r})
		}
		return &out[i]
	}
	for _, t := range o.Turns {
		rt := get(t.Round)
		rt.turns = append(rt.turns, t)
	}
	for _, f := range o.Forfeits {
		rt := get(f.Round)
		rt.forfeits = append(rt.forfeits, f)
	}
	slices.SortStableFunc(out, func(a, b roundTurns) int { return a.round - b.round })
	return out
}

// elide is rounds with at most keep listed (0: all): the first and the
// last half of keep, and between them one whose elided counts the rounds
// left out.
func elide(rounds []roundTurns, keep int) []roundTurns {
	if keep <= 0 || len(rounds) <= keep {
		return rounds
	}
	half := keep / 2
	shown := append(slices.Clip(rounds[:half]), roundTurns{elided: len(rounds) - 2*half})
	return append(shown, rounds[len(rounds)-half:]...)
}

// turnKey finds a slot's turn or decision: its round and speaker.
type turnKey struct {
	round int
	agent string
}

// decisionsOf indexes what the debate decided each slot counted as.
func decisionsOf(o *debate.Outcome) map[turnKey]debate.Decision {
	out := make(map[turnKey]debate.Decision, len(o.Decisions))
	for _, d := range o.Decisions {
		out[turnKey{d.Round, d.Agent}] = d
	}
	return out
}

// writeRounds writes the Round | Attacker | Defender | Outcome table, one
// row per round: the recorded turns, and what the debate decided each
// counted as (Outcome.Decisions); nothing is judged here.
func writeRounds(b *strings.Builder, o *debate.Outcome, keep int) {
	rounds := byRound(o)
	if len(rounds) == 0 {
		b.WriteString("_No turn was recorded._\n\n")
		return
	}
	decided := decisionsOf(o)
	b.WriteString("| Round | Attacker | Defender | Outcome |\n|-------|----------|----------|---------|\n")
	for _, rt := range elide(rounds, keep) {
		if rt.elided > 0 {
			fmt.Fprintf(b, "| … | … | … | %d round(s) not listed here: the transcript [[%s]] has every turn |\n", rt.elided, o.DebateID)
			continue
		}
		var att, def, outcome, others []string
		concede, total, fresh, repeat := 0, 0, 0, 0
		for _, t := range rt.turns {
			d := decided[turnKey{t.Round, t.Agent}]
			switch t.Role {
			case debate.RoleAttacker:
				total++
				switch d.Counter {
				case debate.CounterConceding:
					concede++
					att = append(att, fmt.Sprintf("%s: _no further objections_", inline(t.Agent, 60)))
					continue
				case debate.CounterNew:
					fresh++
				case debate.CounterRepeated:
					repeat++
				}
				att = append(att, fmt.Sprintf("%s: %s", inline(t.Agent, 60), inline(t.Position, cellRunes)))
			case debate.RoleDefender:
				def = append(def, fmt.Sprintf("%s: %s", inline(t.Agent, 60), inline(t.Position, cellRunes)))
				switch d.Stance {
				case debate.StanceAdopts:
					outcome = append(outcome, fmt.Sprintf("defender adopts %s's position", inline(d.Adopted, 60)))
				case debate.StanceStates:
					outcome = append(outcome, "defender states its position")
				case debate.StanceHolds:
					outcome = append(outcome, "defender holds")
				case debate.StanceRevises:
					outcome = append(outcome, "defender revises")
				}
			default:
				others = append(others, fmt.Sprintf("%s %s: %s", t.Role, inline(t.Agent, 60), inline(t.Position, cellRunes)))
			}
		}
		switch {
		case total > 0 && concede == total:
			outcome = append([]string{"attackers concede"}, outcome...)
		default:
			if fresh > 0 {
				outcome = append([]string{fmt.Sprintf("%d new counter(s)", fresh)}, outcome...)
			}
			if repeat > 0 {
				outcome = append([]string{fmt.Sprintf("%d repeated counter(s)", repeat)}, outcome...)
			}
			if concede > 0 {
				outcome = append(outcome, fmt.Sprintf("%d attacker(s) concede", concede))
			}
		}
		outcome = append(outcome, others...)
		for _, f := range rt.forfeits {
			cell := fmt.Sprintf("%s: _forfeited (%s)_", inline(f.Agent, 60), inline(string(f.Reason), 40))
			if f.Role == debate.RoleDefender {
				def = append(def, cell)
			} else {
				att = append(att, cell)
			}
			outcome = append(outcome, fmt.Sprintf("%s forfeits (%s)", inline(f.Agent, 60), inline(string(f.Reason), 40)))
		}
		fmt.Fprintf(b, "| %d | %s | %s | %s |\n", rt.round, orText(strings.Join(att, "; "), "—"),
			orText(strings.Join(def, "; "), "—"), orText(strings.Join(outcome, "; "), "—"))
	}
	b.WriteString("\n")
}

// writeEvidence lists every evidence reference cited, once per check
// result (a file created or edited during the debate reads missing to one
// turn and ok to a later one), with who cited it. Only a wiki page that
// exists becomes a wikilink; everything else is written as code, so no
// record links to nothing.
func writeEvidence(b *strings.Builder, o *debate.Outcome, keep int) {
	type cite struct {
		ev  debate.EvidenceCheck
		who []string
	}
	type found struct{ ref, status, detail string }
	var refs []string
	results := map[string][]found{} // each ref's check results, in the order first met
	cites := map[found]*cite{}
	for _, t := range o.Turns {
		for _, ev := range t.Evidence {
			k := found{ev.Ref, string(ev.Status), ev.Detail}
			c := cites[k]
			if c == nil {
				c = &cite{ev: ev}
				cites[k] = c
				if results[k.ref] == nil {
					refs = append(refs, k.ref)
				}
				results[k.ref] = append(results[k.ref], k)
			}
			who := fmt.Sprintf("%s, round %d", t.Agent, t.Round)
			if !slices.Contains(c.who, who) {
				c.who = append(c.who, who)
			}
		}
	}
	var order []found
	for _, ref := range refs {
		order = append(order, results[ref]...)
	}
	if len(order) == 0 {
		b.WriteString("_No evidence was cited._\n\n")
		return
	}
	left := 0
	if keep > 0 && len(order) > keep {
		order, left = order[:keep], len(order)-keep
	}
	for _, k := range order {
		c, ref := cites[k], k.ref
		link := code(ref)
		if c.ev.Kind == "wiki" && c.ev.Status == debate.EvidenceOK {
			if l, err := vault.ParseLink(ref); err == nil && l.Target != "" {
				link = vault.Link{Target: l.Target, Heading: l.Heading}.String()
			}
		}
		status := orText(inline(string(c.ev.Status), 0), "unchecked")
		if c.ev.Detail != "" {
			status += ": " + inline(c.ev.Detail, 200)
		}
		var who []string
		for _, w := range c.who {
			who = append(who, inline(w, 80))
		}
		fmt.Fprintf(b, "- %s — %s (%s; cited by %s)\n", link, status, inline(c.ev.Kind, 20), strings.Join(who, "; "))
	}
	if left > 0 {
		fmt.Fprintf(b, "- … %d more, not listed here: the transcript [[%s]] has every check\n", left, o.DebateID)
	}
	b.WriteString("\n")
}

// writePositions writes each side's latest position.
func writePositions(b *strings.Builder, o *debate.Outcome) {
	d := o.Session.Defender()
	fmt.Fprintf(b, "### Defender: %s\n\n", orText(inline(d.Name, 60), "(none)"))
	writeQuote(b, o.DefenderPosition)
	for _, a := range o.Session.Attackers() {
		fmt.Fprintf(b, "### Attacker: %s\n\n", inline(a.Name, 60))
		writeQuote(b, o.AttackerPositions[a.Name])
	}
}

func writeQuote(b *strings.Builder, pos string) {
	if strings.TrimSpace(pos) == "" {
		b.WriteString("_No position asserted._\n\n")
		return
	}
	fmt.Fprintf(b, "> %s\n\n", inline(pos, 0))
}

// writeDeadlock says what blocked convergence: the defender held its
// position while every attacker only repeated a counter made before.
func writeDeadlock(b *strings.Builder, o *debate.Outcome) {
	k := o.Session.Budget.ConvergenceRounds
	if k < 1 {
		k = 1
	}
	fmt.Fprintf(b, "The defender's position did not change for %d round(s) while the attackers only repeated counters they had already made, so neither side moved and no further round could converge (rule `%s`). ", k, orText(string(o.Rule), "repeated"))
	b.WriteString("The question is open and escalated to a person.\n\n")
	// Each attacker's last counter, and the round the debate found it was
	// first made in.
	decided := decisionsOf(o)
	last := map[string]debate.TurnRecord{}
	for _, t := range o.Turns {
		if d := decided[turnKey{t.Round, t.Agent}]; t.Role == debate.RoleAttacker && (d.Counter == debate.CounterNew || d.Counter == debate.CounterRepeated) {
			last[t.Agent] = t
		}
	}
	for _, a := range o.Session.Attackers() {
		t, ok := last[a.Name]
		if !ok {
			continue
		}
		first := decided[turnKey{t.Round, t.Agent}].FirstRound
		fmt.Fprintf(b, "- %s repeated in round %d the counter first made in round %d: %s\n", inline(a.Name, 60), t.Round, first, inline(t.Position, cellRunes))
	}
	b.WriteString("\n")
}

// writeExhaustion says which limit ran out and whether a position had been
// agreed by then.
func writeExhaustion(b *strings.Builder, o *debate.Outcome) {
	bud := o.Session.Budget
	switch o.Rule {
	case debate.RuleMaxTokens:
		fmt.Fprintf(b, "The token budget ran out: %d token(s) spent against a limit of %d, in %d round(s).", o.Tokens, bud.MaxTokens, o.Rounds)
	default:
		fmt.Fprintf(b, "The round budget ran out: %d of %d round(s) complete, %d of %d token(s) spent.", o.Rounds, bud.MaxRounds, o.Tokens, bud.MaxTokens)
	}
	if pos := strings.TrimSpace(o.FinalPosition); pos != "" && outcomeAction(o) == debate.ActionProceed {
		if round := o.AgreedRound; round > 0 {
			fmt.Fprintf(b, " Every participant asserted the same position in round %d; that last agreed position stands and the pipeline proceeds on it.\n\n", round)
		} else {
			b.WriteString(" The last agreed position stands and the pipeline proceeds on it.\n\n")
		}
		return
	}
	b.WriteString(" No position was asserted by every participant in the same round, so nothing was agreed: the question is open and escalated to a person.\n\n")
}

// writePartial writes the note and the turns a timed-out debate recorded.
func writePartial(b *strings.Builder, o *debate.Outcome, keep int) {
	switch o.Rule {
	case debate.RuleForfeit:
		b.WriteString("A participant missed its deadline or died, so the debate stopped before it could converge.")
	default:
		fmt.Fprintf(b, "The wall-clock budget (%s) ran out after %s, so the debate stopped before it could converge.", seconds(o.Session.Budget.MaxWallClockMs), seconds(o.ElapsedMs))
	}
	fmt.Fprintf(b, " This transcript is partial: it holds the %d turn(s) recorded before the stop. Nothing was agreed; the question is open and escalated to a person. The full event log is [[%s]].\n\n", len(o.Turns), o.DebateID)
	for _, rt := range elide(byRound(o), keep) {
		if rt.elided > 0 {
			fmt.Fprintf(b, "- … %d round(s) not listed here: the transcript [[%s]] has every turn\n", rt.elided, o.DebateID)
			continue
		}
		for _, t := range rt.turns {
			fmt.Fprintf(b, "- round %d, %s %s: %s\n", t.Round, t.Role, inline(t.Agent, 60), orText(inline(t.Position, cellRunes), "_no further objections_"))
		}
		for _, f := range rt.forfeits {
			detail := ""
			if f.Detail != "" {
				detail = ": " + inline(f.Detail, 200)
			}
			fmt.Fprintf(b, "- round %d, %s %s: _forfeited (%s%s)_\n", f.Round, f.Role, inline(f.Agent, 60), inline(string(f.Reason), 40), detail)
		}
	}
	b.WriteString("\n")
}

// inline makes text safe to place inside a Markdown line
// (vault.EscapeInline), cut to max runes (0: no limit) with an ellipsis.
func inline(s string, max int) string {
	if max > 0 {
		s = clip.Runes(strings.Join(strings.Fields(strings.ToValidUTF8(s, "\uFFFD")), " "), max)
	}
	return vault.EscapeInline(s)
}

// code writes s as an inline code span whose fence is longer than any run
// of backticks inside it.
func code(s string) string {
	s = strings.Join(strings.Fields(strings.ToValidUTF8(s, "\uFFFD")), " ")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, s)
	s = clip.Runes(s, 300)
	if s == "" {
		return "(empty)"
	}
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	return fence + " " + s + " " + fence
}

func orText(s, alt string) string {
	if strings.TrimSpace(s) == "" {
		return alt
	}
	return s
}
