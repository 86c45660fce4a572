package textview

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/internal/clip"
	"github.com/parleyhq/parley/internal/termsafe"
)

// recText makes text read from records (agents' words, names of files in
// the vault) safe to print on a terminal: every control character but
// newline and tab (escape sequences' ESC, C1 controls such as CSI, CR) and
// the Unicode line separators become U+FFFD.
func recText(s string) string { return termsafe.Clean(s, "\n\t") }

// recLine collapses white space, replaces control characters (see
// recText) and cuts to max runes (0: no limit).
func recLine(s string, max int) string { return clip.Runes(recText(clip.OneLine(s)), max) }

// recOut writes lines that carry text read from records: each whole line
// goes through recText. It keeps the first error.
type recOut struct {
	w   io.Writer
	err error
}

func (o *recOut) printf(format string, args ...any) {
	if o.err == nil {
		_, o.err = io.WriteString(o.w, recText(fmt.Sprintf(format, args...)))
	}
}

// NoRecordMatches says that no record of dir passes filter (the filters
// as the user gave them, "--layer plan --status active"), where there are
// records: not that there are none.
func NoRecordMatches(w io.Writer, filter, dir string) error {
	o := &recOut{w: w}
	o.printf("no consensus record matches %s in %s\n", filter, dir)
	return o.err
}

// Records writes the consensus records, one line each (date, layer,
// verdict, action, status, name, topic), with a header row when header is
// set; with none, that there are none in dir.
func Records(w io.Writer, recs []consensus.Record, dir string, header bool) error {
	if len(recs) == 0 {
		o := &recOut{w: w}
		o.printf("no consensus records in %s\n", dir)
		return o.err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	if header {
		fmt.Fprintln(tw, "DATE\tLAYER\tVERDICT\tACTION\tSTATUS\tNAME\tTOPIC")
	}
	for _, r := range recs {
		fmt.Fprint(tw, recText(fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Date, r.Layer, r.Verdict, OrDash(string(r.Action)), r.Status, cleanAll(r.Name), recLine(r.Topic, 80))))
	}
	return tw.Flush()
}

// RecordPage writes a record: its file, a line of its fields, the records
// it supersedes or that supersede it, whether it was overtaken (filed
// superseded by a record its debate started before), the question's
// current record when it is another, and its Markdown body.
func RecordPage(w io.Writer, p *app.RecordPage) error {
	o := &recOut{w: w}
	r := &p.Record
	o.printf("%s\n\n", cleanAll(p.File))
	o.printf("layer %s  verdict %s  action %s  status %s  debate %s\n", r.Layer, r.Verdict, r.Action, r.Status, r.DebateID)
	if r.Supersedes != "" || r.SupersededBy != "" {
		o.printf("supersedes %s  superseded by %s\n", OrDash(r.Supersedes), OrDash(r.SupersededBy))
	}
	if r.OvertakenBy != "" {
		by := cleanAll(r.OvertakenBy)
		o.printf("overtaken by %s: its debate started before %s's debate, which was filed first; %s answers the question, and this record was filed superseded by it\n", by, by, by)
	}
	if p.Current != "" && p.Current != r.OvertakenBy {
		o.printf("current record of the question: %s\n", cleanAll(p.Current))
	}
	o.printf("\n%s", p.Body)
	return o.err
}

// SearchHits writes the ranked records, one line each (score, layer,
// verdict, status, name, topic); with none, that nothing matches query.
func SearchHits(w io.Writer, hits []app.SearchHit, query string) error {
	o := &recOut{w: w}
	for _, h := range hits {
		o.printf("%6.3f  %-6s  %-17s  %-10s  %s  %s\n", h.Score, h.Record.Layer, h.Record.Verdict, h.Record.Status, cleanAll(h.Record.Name), recLine(h.Record.Topic, 70))
	}
	if len(hits) == 0 {
		o.printf("no record matches %q\n", query)
	}
	return o.err
}

// Check writes a position checked against the filed consensus: the
// answer, and for a conflict or an unclear answer both positions and what
// differs; the related records; the question matched.
func Check(w io.Writer, out *app.CheckResult) error {
	o := &recOut{w: w}
	res, file := out.Check, cleanAll(out.File)
	switch res.Status {
	case consensus.CheckConsistent:
		o.printf("consistent: the position agrees with the active consensus %s (score %.2f)\n", file, res.Comparison.Score)
	case consensus.CheckConflict, consensus.CheckUnclear:
		if res.Status == consensus.CheckConflict {
			o.printf("conflict: the position contradicts the active consensus %s\n", file)
		} else {
			o.printf("unclear: parley cannot tell whether the position agrees with %s\n", file)
		}
		o.printf("  filed consensus (%s, debate %s):\n    %s\n", res.Record.Verdict, res.Record.DebateID, recLine(res.Record.FinalPosition, 0))
		o.printf("  your position:\n    %s\n", recLine(res.Position, 0))
		for _, d := range res.Comparison.Differences {
			o.printf("  differs: %s\n", recLine(d, 0))
		}
		if res.Judge != "" {
			o.printf("  judge: %s\n", recLine(res.Judge, 0))
		}
	case consensus.CheckOpen:
		o.printf("open: %s records %s; no position is bound, the question is still open\n", file, res.Record.Verdict)
	case consensus.CheckTampered:
		o.printf("tampered: %s does not verify against its debate's seal; it binds nothing\n  %s\n", file, recLine(res.Problem, 0))
	default:
		o.printf("none: no consensus filed for %s/%s\n", res.Layer, res.Slug)
	}
	if len(res.Related) > 0 {
		o.printf("related:\n")
		for _, h := range res.Related {
			asked := ""
			if h.TopicScore > 0 {
				asked = fmt.Sprintf("  (topic score %.2f)", h.TopicScore)
			}
			o.printf("  %6.3f  %s  %s  %s%s\n", h.Score, cleanAll(h.Record.Path), h.Record.Status, recLine(h.Record.Topic, 70), asked)
		}
	}
	if res.Record != nil {
		o.printf("  question matched: %s (%q, topic score %.2f)\n", cleanAll(res.Record.Name), recLine(res.Record.Topic, 80), res.TopicScore)
	}
	return o.err
}

// CheckEnd words what a check means for the caller who passed lenient
// (see app.CheckResult.Blocks): the warnings to show (the check's own,
// then an open question's, or an unclear answer let through, then a seal
// that could not be checked), and the message of a blocked check (""
// when the position may be taken).
func CheckEnd(out *app.CheckResult, lenient bool) (warnings []string, blocked string) {
	res, file := out.Check, cleanAll(out.File)
	for _, w := range res.Warnings {
		warnings = append(warnings, Warning(w))
	}
	unsealed := ""
	if res.Unsealed != "" && res.Record != nil {
		// A conflict it blocks on rests on the record as much as a
		// consistent answer does.
		unsealed = recText(fmt.Sprintf("seal not checked: %s; the answer rests on %s as it reads now (give the --root its debate ran under to verify it)", res.Unsealed, file))
	}
	if out.Blocks(lenient) {
		switch res.Status {
		case consensus.CheckConflict:
			blocked = fmt.Sprintf("conflict: the position contradicts the filed consensus %s", file)
		case consensus.CheckTampered:
			blocked = fmt.Sprintf("tampered: %s does not verify against its debate's seal, so it binds nothing: %s", file, res.Problem)
		default:
			blocked = fmt.Sprintf("unclear: parley cannot tell whether the position agrees with %s; read it, or pass --lenient", file)
		}
		if unsealed != "" {
			warnings = append(warnings, unsealed)
		}
		return warnings, recText(blocked)
	}
	switch res.Status {
	case consensus.CheckUnclear:
		warnings = append(warnings, recText(fmt.Sprintf("unclear: parley cannot tell whether the position agrees with %s (--lenient: not blocking)", file)))
	case consensus.CheckOpen:
		warnings = append(warnings, recText(fmt.Sprintf("the question is open: %s records %s, which binds no position", file, res.Record.Verdict)))
	}
	if unsealed != "" {
		warnings = append(warnings, unsealed)
	}
	return warnings, ""
}

// Warning is a warning that quotes records (a file skipped, a judge that
// did not answer) on one line, safe to print.
func Warning(s string) string { return recLine(s, 0) }
