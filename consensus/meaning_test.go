package consensus

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/parleyhq/parley/debate"
)

// meaningCase is one question asked against the filed records of a
// testdata/meaning file.
type meaningCase struct {
	record, want, topic, position, category string
	layer                                   debate.Layer
	line                                    int
}

type meaningRecord struct {
	name, topic, position string
	layer                 debate.Layer
	open                  bool
}

func loadMeaning(t testing.TB, file string) ([]meaningRecord, []meaningCase) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var recs []meaningRecord
	var cases []meaningCase
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		kind, rest, _ := strings.Cut(line, " ")
		parts := strings.Split(rest, "|")
		for i := range parts {
			parts[i] = strings.TrimSpace(parts[i])
		}
		switch {
		case kind == "R" && (len(parts) == 4 || len(parts) == 5):
			recs = append(recs, meaningRecord{name: parts[0], layer: debate.Layer(parts[1]), topic: parts[2], position: parts[3], open: len(parts) == 5})
		case kind == "Q" && len(parts) == 6:
			cases = append(cases, meaningCase{record: parts[0], want: parts[1], layer: debate.Layer(parts[2]), topic: parts[3], position: parts[4], category: parts[5], line: n})
		default:
			t.Fatalf("%s:%d: cannot parse %q", file, n, line)
		}
	}
	return recs, cases
}

// meaningFigures are the rates the issue asks for.
type meaningFigures struct {
	n                                         int
	consistent, conflict, none, unclear, open rate
	paraphraseConflict                        rate // agreeing paraphrases answered conflict
	unclearAnswers                            int  // questions answered unclear that wanted another answer
	byCategory                                map[string]*rate
	failures                                  []string
}

type rate struct{ ok, of int }

func (r rate) String() string {
	if r.of == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.2f (%d/%d)", float64(r.ok)/float64(r.of), r.ok, r.of)
}

func (r rate) value() float64 {
	if r.of == 0 {
		return 1
	}
	return float64(r.ok) / float64(r.of)
}

// meaningOutcome is the closed debate that files r under id: agreed on
// its position, or a deadlock for an open question.
func meaningOutcome(id string, r meaningRecord) *debate.Outcome {
	if r.open {
		return outcome(id, r.topic, r.layer, debate.Deadlock, false)
	}
	o := outcome(id, r.topic, r.layer, debate.ConsensusReached, false)
	o.FinalPosition, o.FinalPositionHash = r.position, debate.PositionHash(r.position)
	return o
}

// fileMeaning files a set's records into e, one at a time, and returns
// each record's name in the vault under its name in the set.
func fileMeaning(t *testing.T, e *env, recs []meaningRecord) map[string]string {
	t.Helper()
	names := make(map[string]string, len(recs))
	for i, r := range recs {
		p := e.file(t, meaningOutcome(fmt.Sprintf("20261130-%s-m%05d-abcdef", r.layer, i), r))
		names[r.name] = strings.TrimSuffix(strings.TrimPrefix(p, Folder+"/"), ".md")
	}
	return names
}

// runMeaning counts the answers to the questions of file, asked of a
// vault of the set's own records (checkSet).
func runMeaning(t *testing.T, file string) meaningFigures {
	t.Helper()
	set := checkSet(t, file)
	names := set.names
	fig := meaningFigures{byCategory: map[string]*rate{}}
	for i, c := range set.cases {
		res := set.answers[i]
		got := string(res.Status)
		ok := got == c.want
		matched := ""
		if res.Record != nil {
			matched = res.Record.Name
		}
		if c.want != "none" && ok && matched != names[c.record] {
			ok = false
		}
		if c.want == "none" && res.Record != nil && matched == names[c.record] {
			ok = false
		}
		fig.n++
		if got == "unclear" && c.want != "unclear" {
			fig.unclearAnswers++
		}
		r := map[string]*rate{"consistent": &fig.consistent, "conflict": &fig.conflict, "none": &fig.none, "unclear": &fig.unclear, "open": &fig.open}[c.want]
		r.of++
		cat := fig.byCategory[c.category]
		if cat == nil {
			cat = &rate{}
			fig.byCategory[c.category] = cat
		}
		cat.of++
		if ok {
			r.ok++
			cat.ok++
		} else {
			fig.failures = append(fig.failures, fmt.Sprintf("line %d (%s): want %s, got %s (record %q, topic %.2f, %v, %v)",
				c.line, c.category, c.want, got, matched, res.TopicScore, res.Comparison.Score, res.Comparison.Differences))
		}
		if c.want == "consistent" {
			fig.paraphraseConflict.of++
			if got == "conflict" {
				fig.paraphraseConflict.ok++
			}
		}
	}
	return fig
}

func (f meaningFigures) log(t *testing.T, name string) {
	t.Helper()
	t.Logf("%s: %d questions: consistent %v, conflict %v, none %v, unclear %v, open %v; agreeing paraphrases answered conflict %v; answered unclear instead %d",
		name, f.n, f.consistent, f.conflict, f.none, f.unclear, f.open, f.paraphraseConflict, f.unclearAnswers)
	for cat, r := range f.byCategory {
		t.Logf("  %-22s %v", cat, *r)
	}
	for _, s := range f.failures {
		t.Logf("  miss: %s", s)
	}
}

// The bars lookup by meaning must clear: consistent, conflict and none
// each answered right at least 90% of the time, and at most 5% of the
// agreeing paraphrases answered conflict (an agent told conflict does not
// act).
func (f meaningFigures) check(t *testing.T) {
	t.Helper()
	f.guard(t, "the set's", "bar", 0.9, 0.9, 0.9, 0.05)
}

// TestMeaningTune runs the pairs the matcher was tuned on.
func TestMeaningTune(t *testing.T) {
	t.Parallel()
	f := runMeaning(t, "testdata/meaning/tune.txt")
	f.log(t, "tuning set")
	f.check(t)
}

// TestMeaningHeldOut runs pairs written before the tuning, in other
// domains and voices. Their failures were read and fixed in general form
// (curated groups, number and unit reading, negation scope, conditions),
// so they are no longer unseen; TestMeaningSealed keeps a set that was.
func TestMeaningHeldOut(t *testing.T) {
	t.Parallel()
	f := runMeaning(t, "testdata/meaning/heldout.txt")
	f.log(t, "held-out set")
	f.check(t)
}

// TestMeaningSealed runs pairs written in other voices about records of
// their own and committed before the matcher was first run on them.
func TestMeaningSealed(t *testing.T) {
	t.Parallel()
	f := runMeaning(t, "testdata/meaning/sealed.txt")
	f.log(t, "sealed set")
	// Measured once before any change made with this set in view:
	// consistent 0.70, conflict 0.80, none 0.95, paraphrases answered
	// conflict 0.13. Its failures were then read and fixed in general
	// form, so it is no longer unseen either: TestMeaningSealed2 is.
	f.check(t)
}

// TestMeaningSealed2 runs a second set written in other voices about
// records of its own, committed before the matcher was run on it.
func TestMeaningSealed2(t *testing.T) {
	t.Parallel()
	f := runMeaning(t, "testdata/meaning/sealed2.txt")
	f.log(t, "second sealed set")
	// Measured once, before any change made with this set in view:
	// consistent 0.53, conflict 0.79, none 0.95, paraphrases answered
	// conflict 0.05, 5 answers unclear. Its failures were then read and
	// fixed in general form: no longer unseen.
	f.check(t)
}

// TestMeaningSealed3 runs a third set written in other voices about
// records of its own, committed before the matcher was run on it.
func TestMeaningSealed3(t *testing.T) {
	t.Parallel()
	f := runMeaning(t, "testdata/meaning/sealed3.txt")
	f.log(t, "third sealed set")
	// Measured once, before any change made with this set in view:
	// consistent 0.44, conflict 0.75, none 0.89, paraphrases answered
	// conflict 0.12, 3 answers unclear. Its failures were then read and
	// fixed in general form: no longer unseen.
	f.check(t)
}

// TestMeaningSealed4 runs a fourth set written in other voices about
// records of its own, committed before the matcher was run on it.
func TestMeaningSealed4(t *testing.T) {
	t.Parallel()
	f := runMeaning(t, "testdata/meaning/sealed4.txt")
	f.log(t, "fourth sealed set")
	// Measured once, before any change made with this set in view:
	// consistent 0.50, conflict 0.74, none 0.94, paraphrases answered
	// conflict 0.14, 4 answers unclear. After general fixes made from
	// reading its failures: 0.86, 0.87, 1.00, 0.00, 2 unclear; after the
	// fixes made with the fifth set: 1.00, 0.87, 1.00, 0.00, 2 unclear;
	// short of the bar on conflict. Guard against falling below that.
	f.guard(t, "fourth sealed", "last measurement", 0.99, 0.86, 0.99, 0.05)
}

// TestMeaningSealed5 runs a fifth set written in other voices about
// records of its own, committed before the matcher was run on it.
func TestMeaningSealed5(t *testing.T) {
	t.Parallel()
	f := runMeaning(t, "testdata/meaning/sealed5.txt")
	f.log(t, "fifth sealed set")
	// Measured once, before any change made with this set in view:
	// consistent 0.28, conflict 0.64, none 1.00, paraphrases answered
	// conflict 0.17, 4 answers unclear. The changes of its round were made
	// from reading its failures (in general form: mechanisms and curated
	// groups): 0.89, 0.88, 1.00, 0.00, 1 unclear; short of the bar on
	// consistent and conflict. Guard against falling below that.
	f.guard(t, "fifth sealed", "last measurement", 0.88, 0.88, 0.99, 0.05)
}

// TestMeaningSealed6 runs a sixth set written with the fifth and kept out
// of view while the fifth was read and fixed: the honest held-out figure
// of that round.
func TestMeaningSealed6(t *testing.T) {
	t.Parallel()
	f := runMeaning(t, "testdata/meaning/sealed6.txt")
	f.log(t, "sixth sealed set")
	// Measured before any change of the round (only the summary line was
	// read, never its misses): consistent 0.22, conflict 0.64, none 0.92,
	// paraphrases answered conflict 0.39, 3 answers unclear. Measured once
	// after the round's changes (its first contact with them, nothing
	// changed since with its failures in view): consistent 0.39, conflict
	// 0.76, none 0.92, paraphrases answered conflict 0.28, 3 unclear — far
	// below the bar: the lexical lists do not carry over to wording they
	// have not seen. The next round read its misses (no longer held out)
	// and reached consistent 0.83, conflict 1.00, none 0.92, paraphrases
	// answered conflict 0.06. Guard against falling below that.
	f.guard(t, "sixth sealed", "last measurement", 0.83, 0.99, 0.92, 0.06)
}

// guard fails the test when a set's figures fall below the floors last
// measured on it (which): consistent, conflict and none recall at least
// the given values, paraphrases answered conflict at most paraphraseMax.
//
// On 2026-12-02 (second round) a negation or condition found alone
// between positions worded apart became unclear rather than conflict
// (softScore in compare.go). The floors of conflict and the ceilings of
// paraphrases answered conflict moved with it, together: on sealed 10 to
// 15, 15 points of conflict recall became unclear where 32 points of
// agreeing paraphrases stopped being answered conflict. Measured unseen
// on sealed 16 (written that day, never read): conflict 0.60 → 0.56,
// paraphrases answered conflict 0.11 → 0.06.
func (f meaningFigures) guard(t *testing.T, set, which string, consistent, conflict, none, paraphraseMax float64) {
	t.Helper()
	if f.consistent.value() < consistent || f.conflict.value() < conflict || f.none.value() < none || f.paraphraseConflict.value() > paraphraseMax {
		t.Errorf("%s figures fell below the %s: consistent %v, conflict %v, none %v, paraphrases answered conflict %v",
			set, which, f.consistent, f.conflict, f.none, f.paraphraseConflict)
	}
}

// TestMeaningSealed7 runs a set written by a separate session that never
// read the matcher's code: 42 records in new subject areas, 172 questions
// in eight voices, half of the conflicts reworded from scratch. It was
// kept outside the repository while the round's changes were made and is
// the honest held-out figure. Before the round (a57012d): consistent 0.36,
// conflict 0.38, none 1.00, paraphrases answered conflict 0.31. After it,
// measured once: consistent 0.56, conflict 0.53, none 1.00, paraphrases
// answered conflict 0.29. Most misses are a reworded question whose
// record is not found (26 conflicts and 10 agreeing positions answered
// none) and reworded agreeing positions read as changes (20). Guard
// against falling below that.
func TestMeaningSealed7(t *testing.T) {
	t.Parallel()
	f := runMeaning(t, "testdata/meaning/sealed7.txt")
	f.log(t, "seventh sealed set")
	// The 2026-12-02 round tuned on it (its misses were read): 0.91, 0.68,
	// 1.00, 0.04. No longer held out; guard against falling below that.
	f.guard(t, "seventh sealed", "measurement after the round that tuned on it", 0.90, 0.67, 0.99, 0.05)
}

// TestMeaningSealed8 and TestMeaningSealed9 run two sets written on
// 2026-12-02 by separate sessions that read no matcher code, kept outside
// the repository while that day's round changed the matcher (topic
// evidence, comparison readings, agents' wording) and measured by the lead
// only, before and after: the round's held-out figures. Sealed 8: 43
// records in new subject areas, 174 questions in nine voices, 34 of the 65
// conflicts written from scratch under a reworded topic. Sealed 9: 38
// records about what coding agents meet in repositories, 160 questions in
// the voices of LLM agents (framing, hedges, markdown, rules as config
// values), every agreeing question reworded in topic and position.
//
//	          before (2e4e3ca)           after (d78c480)
//	sealed 8  0.51 0.55 0.97; 0.21       0.69 0.65 0.97; 0.18
//	sealed 9  0.31 0.41 0.97; 0.24       0.44 0.49 0.97; 0.23
//
// (consistent, conflict, none; agreeing paraphrases answered conflict.)
// Far from the bars: most misses are questions whose record is not found
// and agreeing rewordings read as a change. The next round read their
// misses (no longer held out): sealed 8 0.81 0.69 0.97; 0.12, sealed 9
// 0.61 0.56 0.97; 0.10. Guard against falling below that.
func TestMeaningSealed8(t *testing.T) {
	t.Parallel()
	f := runMeaning(t, "testdata/meaning/sealed8.txt")
	f.log(t, "eighth sealed set")
	f.guard(t, "eighth sealed", "measurement after the round that read its misses", 0.80, 0.66, 0.97, 0.10)
}

func TestMeaningSealed9(t *testing.T) {
	t.Parallel()
	f := runMeaning(t, "testdata/meaning/sealed9.txt")
	f.log(t, "ninth sealed set (agents' voices)")
	f.guard(t, "ninth sealed", "measurement after the round that read its misses", 0.61, 0.55, 0.97, 0.09)
}

// TestMeaningCheck7 runs a seventh set, written in voices and about
// records of its own and committed before the round that tuned on
// tune7.txt; it was kept out of view during that round (only its summary
// line was read): the round's held-out figure.
func TestMeaningCheck7(t *testing.T) {
	t.Parallel()
	f := runMeaning(t, "testdata/meaning/check7.txt")
	f.log(t, "seventh check set")
	// Measured once before any change of the round and once after them
	// (only this summary line read both times): consistent 0.45 → 0.70,
	// conflict 0.82 → 0.91, none 0.81 → 0.81, unclear 0.50 → 0.50,
	// paraphrases answered conflict 0.35 → 0.10, answers unclear instead
	// 4 → 3. Short of the bar on consistent, none and paraphrases (the
	// misses of none and most of consistent are questions whose record is
	// not found). Guard against falling below the measurement after.
	// Its misses were then read, and fixed in general form ("free of
	// charge", "calendar year", "away from", "as often as", an exception
	// covered "even"): 0.75, 0.93, 0.81, 0.05, 3 unclear. No longer unseen.
	f.guard(t, "seventh check", "held-out measurement", 0.70, 0.88, 0.80, 0.10)
}

// TestMeaningTune7 runs the seventh tuning set: records and voices of its
// own, read and tuned on in the round that kept check7.txt out of view.
func TestMeaningTune7(t *testing.T) {
	t.Parallel()
	f := runMeaning(t, "testdata/meaning/tune7.txt")
	f.log(t, "seventh tuning set")
	// Before the round: consistent 0.47, conflict 0.76, none 0.94,
	// paraphrases answered conflict 0.29, 13 answers unclear. After it:
	// 0.79, 0.96, 0.94, 0.03, 5 unclear (most misses of consistent are
	// questions whose record is not found). Guard against falling below.
	f.guard(t, "seventh tuning", "last measurement", 0.79, 0.95, 0.94, 0.03)
}

// TestMeaningSealed10 and TestMeaningSealed11 run two sets written on
// 2026-12-02 by separate sessions that read no matcher code, kept outside
// the repository while the day's second round changed the matcher
// (questions asked in words of their own found by their evidence; the
// comparison's readings of conditions, values and options said another
// way) and measured by the lead only, before and after: the round's
// held-out figures. Sealed 10: 40 records (health scheduling, logistics,
// game servers, ledgers, warehousing, streaming analytics, IoT,
// accessibility, HR, toolchains, docs sites, support, marketplaces,
// incident response), 160 questions in the voices of code reviews,
// postmortems, requirement docs, help centres, emails, handovers and
// decision records, and of agents about to act. Sealed 11: 40 records in
// twenty other domains, 160 questions from second-language speakers,
// terse engineers, managers, support and compliance, new hires and
// agents' plans, summaries and config.
//
//	           before (a724a1e)           after (this round)
//	sealed 10  0.42 0.50 0.86; 0.11       0.42 0.48 0.86; 0.10 (19 unclear)
//	sealed 11  0.55 0.61 0.92; 0.16       0.61 0.61 0.92; 0.16
//
// (consistent, conflict, none; agreeing paraphrases answered conflict.)
// The round lifted the sets it read (sealed 9: 0.44 → 0.61 consistent)
// far more than these: rules written from the misses of some wording
// carry over to other wording only in part. Guard against falling below.
//
// Read since (no longer unseen): with a question's abbreviations and
// compounds of its record's words bridged (bridge.go), sealed 10 is at
// 0.42 0.52 0.86; 0.11 and sealed 11 at 0.61 0.66 0.92; 0.18. Found, five
// more conflicts block; two agreeing rewordings found with them are read
// as changes by the comparison ("condition added"), which the paraphrase
// figures count. With "settings", "tuning", "lifecycle" and "knob" read
// as generic words ("SPC alarm settings" asks what "SPC alerts" asks;
// "config" stays specific: "How config reaches services" is no question
// of "How secrets reach services"): sealed 11 0.63 0.68 0.92; 0.18.
func TestMeaningSealed10(t *testing.T) {
	t.Parallel()
	f := runMeaning(t, "testdata/meaning/sealed10.txt")
	f.log(t, "tenth sealed set")
	f.guard(t, "tenth sealed", "held-out measurement", 0.41, 0.51, 0.86, 0.09)
}

func TestMeaningSealed11(t *testing.T) {
	t.Parallel()
	f := runMeaning(t, "testdata/meaning/sealed11.txt")
	f.log(t, "eleventh sealed set")
	f.guard(t, "eleventh sealed", "held-out measurement", 0.62, 0.62, 0.91, 0.05)
}

// TestMeaningSealed12 and TestMeaningSealed13 run the twelfth and
// thirteenth sealed sets: 40 records each in twenty subject areas no
// earlier set uses, 160 questions each (Slack, tickets, support macros,
// ADRs, code reviews, an agent's reasoning before a tool call, commit
// messages, runbooks, second-language and terse voices; executives'
// emails, meeting notes, RFC prose, forum posts, Given/When/Then tests,
// agents' checklists, Kubernetes and Terraform, changelogs, British
// spelling and ops shorthand), written by sessions that read no code of
// the lookup, kept outside the repository and run only by the lead:
// before the round of 2026-12-02 (third part, 25f09a8), after its finding
// changes (56fa613) and after its comparison changes (1a66f48):
//
//	           25f09a8                56fa613                1a66f48
//	sealed 12  0.50 0.53 0.97; 0.10   0.52 0.53 0.97; 0.11   0.61 0.55 0.97; 0.10
//	sealed 13  0.27 0.55 0.94; 0.26   0.27 0.56 0.94; 0.27   0.32 0.56 0.94; 0.24
//
// (consistent, conflict, none; agreeing paraphrases answered conflict.)
// Guard against falling below. Read since: with "allowlist" and
// "whitelist" one word, and a compound's end another form of the record's
// word ("autoverify"), sealed 13 is at 0.34 0.56 0.94; 0.26 (the
// allowlisted question now found is read as a dropped condition); with
// "close call" read as "near miss", "hire car" as "rental car",
// "enquiry" as "inquiry" and an abbreviation before a hyphen bridged
// ("PR-based"), 0.35 0.58 0.94; 0.27.
func TestMeaningSealed12(t *testing.T) {
	t.Parallel()
	f := runMeaning(t, "testdata/meaning/sealed12.txt")
	f.log(t, "twelfth sealed set")
	f.guard(t, "twelfth sealed", "held-out measurement", 0.61, 0.54, 0.97, 0.09)
}

func TestMeaningSealed13(t *testing.T) {
	t.Parallel()
	f := runMeaning(t, "testdata/meaning/sealed13.txt")
	f.log(t, "thirteenth sealed set")
	f.guard(t, "thirteenth sealed", "held-out measurement", 0.34, 0.57, 0.94, 0.21)
}

// TestMeaningSealed14 and TestMeaningSealed15 run the fourteenth and
// fifteenth sealed sets, written like sealed 12 and 13 (40 records each in
// twenty subject areas of their own, 160 questions each: requirement docs,
// issue comments, handover notes, angry customers, lawyers' memos, a
// junior's chat question, an agent's tool call as JSON, review minutes,
// Helm and .env fragments, pager alerts; Stack Overflow questions, retro
// notes, procurement emails, acceptance criteria, an agent summarising a
// pull request, compliance checklists, postmortem actions, a casual
// explanation, French and German speakers, commit subjects), kept outside
// the repository and run only by the lead, before the round (25f09a8) and
// after all of it (9c7d2b5), its last part (sealed 12 and 13 read)
// included:
//
//	           25f09a8                9c7d2b5
//	sealed 14  0.39 0.60 0.94; 0.13   0.45 0.65 0.94; 0.15
//	sealed 15  0.39 0.60 0.89; 0.21   0.44 0.61 0.89; 0.23
//
// Guard against falling below.
func TestMeaningSealed14(t *testing.T) {
	t.Parallel()
	f := runMeaning(t, "testdata/meaning/sealed14.txt")
	f.log(t, "fourteenth sealed set")
	f.guard(t, "fourteenth sealed", "held-out measurement", 0.45, 0.62, 0.94, 0.07)
}

func TestMeaningSealed15(t *testing.T) {
	t.Parallel()
	f := runMeaning(t, "testdata/meaning/sealed15.txt")
	f.log(t, "fifteenth sealed set")
	f.guard(t, "fifteenth sealed", "held-out measurement", 0.43, 0.59, 0.88, 0.17)
}

// TestMeaningSealedLater runs the sets written from sealed16 on, each by
// a session that read no code, word list or test of parley, in twenty
// domains and ten voices of its own, against the floors last measured on
// it (consistent, conflict, none; agreeing paraphrases answered conflict
// at most).
//
// Sealed 16 to 19 were written on 2026-12-02 (fourth round) and stayed
// outside the repository while the round changed the comparison (a
// negation or a condition found alone answers unclear; business and
// school days). Before the round (714851b) → after it (0dcfd45):
//
//	sealed 16  0.40 / 0.60 / 0.89; 11%  →  0.40 / 0.56 / 0.89; 6%
//	sealed 17  0.47 / 0.63 / 0.89; 11%  →  0.47 / 0.61 / 0.89; 10%
//	sealed 18  0.45 / 0.53 / 0.89;  6%  →  0.45 / 0.52 / 0.89; 6%
//	sealed 19  0.60 / 0.60 / 1.00; 13%  →  0.60 / 0.58 / 1.00; 11%
//
// Sealed 16's summary line was read three times while the rule's forms
// were compared, and one of its misses once; 18 and 19 were measured
// only at the end. Their misses were then read, and the round went on in
// general form (British words for things, business hours, court days,
// knots, "not required", "a quarter hour", "per thousand", "every week"
// traded). Sealed 20 and 21, written the same day in forty other domains
// and twenty other voices, were measured once before that round and once
// after it, summary lines only: sealed 20 0.40 / 0.52 / 1.00; 19% →
// 0.40 / 0.52 / 1.00; 16%, sealed 21 0.45 / 0.50 / 0.86; 15% → unchanged.
//
// Sealed 22 to 25 were written on 2026-12-02 (fifth round). Before the
// round (2d054f5), summary lines only: sealed 22 0.45 / 0.71 / 0.83; 24%,
// sealed 23 0.48 / 0.63 / 0.92; 26%, sealed 24 0.55 / 0.66 / 0.83; 23%,
// sealed 25 0.45 / 0.63 / 0.97; 39%. The misses of 22 and 23 were read
// after the round's first change (numbers said otherwise) and the round
// went on in general form (configuration fragments, bounds, money,
// stated rules, negated bounds, "missing"); 24 and 25 stayed unread and
// were measured once more at the end: sealed 24 0.52 / 0.69 / 0.83; 24%,
// sealed 25 0.47 / 0.65 / 0.97; 37%. Their agreeing paraphrases are
// answered conflict far more often than the earlier sets' (23% to 39%):
// these writers edit the filed sentence lightly, and an edit of the filed
// sentence counts every word it changes.
//
// Sealed 26 to 29 were written on 2026-12-02 (sixth round). Before the
// round (2d36cc4), summary lines only: sealed 26 0.52 / 0.68 / 0.92; 27%,
// sealed 27 0.32 / 0.71 / 0.97; 42%. Their misses were read during the
// round (26 after its second change, 27 after its fifth), which went on
// in general form (a record found by its numbers, negation said
// otherwise, items the topic names, an exception set apart with a rule
// of its own): 26 0.60 / 0.69 / 0.92; 21%, 27 0.37 / 0.68 / 0.97; 37%.
// Sealed 28 and 29 were written afterwards and measured once before the
// round and once after it, summary lines only: sealed 28 0.61 / 0.69 /
// 0.94; 13% → 0.66 / 0.69 / 0.94; 10%, sealed 29 0.66 / 0.63 / 0.94; 15%
// → unchanged. Their misses were then read; languages and contact
// channels became options (one more conflict on sealed 23 and 29). The
// floors of sealed 16 to 25 were raised to what they
// measured at the end of that round (sealed 22 0.50 → 0.53 consistent and
// 21% → 16%, sealed 17 0.51 → 0.55, sealed 19 0.60 → 0.65).
//
// Sealed 30 to 33 were written on 2026-12-02 (seventh round), by writers
// who saw only a brief. Sealed 30 and 31 were measured before the
// round's first change (55902e9); 31's misses were then read, and 30, 32
// and 33 (32 and 33 written during the round) stayed unread, measured
// before and after, summary lines only: sealed 30 0.50 / 0.82 / 0.97;
// 29% → 0.53 / 0.82 / 0.97; 26%, sealed 32 0.56 / 0.74 / 0.94; 23% →
// unchanged, sealed 33 0.48 / 0.81 / 1.00; 23% → unchanged; sealed 31
// (read) 0.52 / 0.73 / 0.94; 27% → 0.55 / 0.77 / 0.94; 23%. The floors of
// sealed 16 to 29 were raised to what they measured at the end of that
// round.
//
// Sealed 34 to 37 were written at the start of the eighth round
// (2026-12-02, from a brief that did not list the domains already used:
// studio bookings, visitor logs, pawn shops and call recordings come
// back), measured once on 524e925, summary lines only: 0.58 / 0.87 /
// 0.78; 24%, 0.58 / 0.82 / 0.92; 32%, 0.55 / 0.87 / 0.78; 24%, 0.53 /
// 0.82 / 0.92; 23%. One reading tried first on sealed 1 to 33 (a word
// of the record's topic the question's topic names too) cost them an
// agreeing answer and was dropped; then their near misses and agreeing
// answers were read, and the round went on in general form (topics that
// clash, number words of more than one group, a bound on how often, the
// rule set aside under a condition): 0.60 / 0.87 / 0.78; 24%, 0.61 /
// 0.82 / 0.92; 29%, 0.65 / 0.87 / 0.86; 19%, 0.58 / 0.82 / 0.92; 18%.
// Sealed 38 and 39 were written during the round and measured on 524e925
// and at its end, summary lines only, never read: sealed 38 0.56 / 0.85
// / 0.94; 29% → 0.58 / 0.85 / 0.94; 29%, sealed 39 0.48 / 0.87 / 0.86;
// 35% → 0.50 / 0.87 / 0.86; 34%.
//
// Sealed 40 and 41 were written at the start of the ninth round
// (2026-12-03) and measured on a4f7c3e and after the round's first
// change, summary lines only: 0.60 / 0.87 / 0.83; 21% and 0.65 / 0.82 /
// 0.86; 23%, the same both times. Their misses were then read, and the
// round went on in general form (an exception said as an exemption,
// "three quarters of an hour", amounts with a decimal comma, digits read
// out one by one, an agent's reasoning trace, discourse particles):
// 0.68 / 0.87 / 0.83; 13% and 0.69 / 0.82 / 0.86; 16%. One question of
// sealed 30 had been answered conflict for a wrong reason (its exception
// read as turned into a condition); the exemption reading answers that
// part consistent, and the swap it holds is found now that "later ones
// at 100%" is no bound. Sealed 42 and 43 were written during the round
// and measured on a4f7c3e and at its end, summary lines only, never read:
// 0.69 / 0.90 / 0.78; 27% and 0.61 / 0.87 / 0.81; 29% both times (the
// round's readings carried over to none of their questions). Their
// misses were then read: a message's greeting and sign-off ("Hi Dave,
// thanks for your ticket", "Kind regards, Box Office") were clauses
// added to the rule; read as the message's, 0.76 / 0.90 / 0.78; 21% and
// 0.63 / 0.87 / 0.81; 27%, and one more agreeing question of sealed 36.
// A unit of time the record's topic names, changed in an edit ("respite
// nights" → "respite weeks"), is no object renamed: one more conflict of
// sealed 42. Sealed 44 and 45 were written then and measured on a4f7c3e
// and at the round's end, summary lines only, never read: 0.61 / 0.87 /
// 0.89; 21% → 0.65 / 0.87 / 0.89; 18%, and 0.60 / 0.85 / 0.81; 27% both
// times. Temperature was then read as a dimension ("°C", "degrees C",
// "35 C"; Fahrenheit a scale of its own) with its scale kept as a word
// of the rule: on sealed 44 and 45 (summary lines) two fewer agreeing
// rewordings answered conflict, nothing else moved; on sealed 1 to 43
// two more conflicts (°C → °F, and "every 2 days" → "every 2 weeks",
// which the bare "2" of "2 °C" had matched) for two agreeing answers
// (sealed 22: a SQL row whose "min_temp_c" no longer finds its record;
// 25: a reading of 9.1 °C beside the rule, unclear) and, on sealed 16, an
// exception said as a condition now a conflict rather than unclear: the
// floors of 16, 22 and 25 are what they measure with it.
//
// Sealed 46 to 49 were written for the tenth round (2026-12-03). 46 and
// 47 were measured on 08d3abf and after the round's first change,
// summary lines only: 0.52 / 0.71 / 0.78; 39% and 0.69 / 0.81 / 0.86; 24%
// at the base, the same and 0.68 / 0.81 / 0.86; 26% after it. Their
// misses were then read and the round went on in general form (money said
// aloud, "for one leader" as per, ranges said with "until", "latest 4
// pm", keys quoted for "=>", pounds that weigh or pay): 0.58 / 0.73 /
// 0.78; 32% and 0.76 / 0.84 / 0.86; 18%. Sealed 48 and 49 were written
// during the round and measured on 08d3abf and at its end, summary lines
// only: 0.69 / 0.92 / 0.86; 21% → 0.69 / 0.92 / 0.86; 19%, and 0.61 /
// 0.68 / 0.86; 27% → 0.61 / 0.68 / 0.86; 29%. On the way sealed 49's line
// showed two readings costing agreeing answers (money said aloud read
// "for thirty pounds one booking" as £30.01; swap and exchange as one
// word lowered a topic's score): those two questions and a third of the
// same record were read, the first reading tightened and the second
// dropped. On sealed 1 to 45 the round moved 1572 → 1580 agreeing
// answers, 1899 → 1901 conflicts, 1382 → 1382 near misses, 398 → 391
// agreeing rewordings answered conflict, and five floors by one question
// each: sealed 23's "must not start unloading while more than 2 vehicles"
// is no longer read as unloading allowed at 2 or fewer (a negated rule
// keeps its negation when the bound is its condition's), which had made a
// modality conflict certain (now unclear); sealed 30's "16 or over" is "at
// least 16" and the edit alignment of that reordered rewording now swaps
// "riders" for "anyone"; sealed 33's "until 1.25 times" is "up to" and
// the alignment then reads "under the permit" against "with the permit";
// sealed 35's "every Monday" said as "the Monday deep clean" is no period
// dropped, and the shift it changes (morning to evening) is not read;
// sealed 43's Perl hash ("=>") is read as a configuration, and an
// agreeing answer that was unclear is a conflict.
//
// Sealed 50 to 53 were written for the round of 2026-12-03 (eleventh
// part) and measured on 9f1c528, summary lines only: 0.60 / 0.76 / 0.89;
// 27%, 0.52 / 0.84 / 0.81; 27%, 0.63 / 0.82 / 0.94; 23% and 0.66 / 0.98 /
// 0.86; 24%. The misses of 50 and 51 were read and the round went on in
// general form (dot times, "one and half hour", "and up to", "a Year 6
// monitor", "in the first hour", speeds in words, "EUR50", an agent's
// trailing confidence, spreadsheet TIME(), Turtle, "Ladies and
// gentlemen", numbers traded with the condition, "Rule:", "Remember:",
// "e-mail", "a tenner"): 0.68 / 0.77 / 0.89; 24% and 0.63 / 0.84 / 0.81;
// 19%. 52 and 53 stayed unread and
// ended where they began; two readings that moved 52's summary line the
// wrong way (a check's "Verify that" read as framing; an agent's
// confidence in brackets anywhere, "Rule (confidence 0.9):", tried after
// reading 52's list of voices) were dropped.
// Read after the lists of voices of 52 and 53 were read, for the docs:
// Lisp association lists and designated initializers (sealed 47 +2
// agreeing, 53 0.71 / 0.98 / 0.86; 21%).
//
// Sealed 54 to 57 were written for the round of 2026-12-03 (twelfth
// part: workplaces, public safety and civic life, trades, money and
// consumer services) and measured on 3bd745e, summary lines only: 0.61 /
// 0.89 / 0.78; 29%, 0.71 / 0.90 / 0.83; 23%, 0.60 / 0.85 / 0.97; 29% and
// 0.56 / 1.00 / 0.92; 29%. The misses of 55 and 56 were read and the round
// went on in general form ("at opening and at closing", "every" narrowed
// to "only", "a full refund", "not … unless" for "only when", "every
// second Sunday", "only up to", "falling" and "dropping", "3 degrees", a
// label before the position, four-digit times of day, "costs nothing",
// a lifted duty, "not before" as "only after", "heavier than", "left
// out"): 55 ended at 0.75 / 0.90 / 0.83; 20% and 56 at 0.66 / 0.87 /
// 0.97; 23%. 54 and 57 stayed unread and ended where they began.
// Two sets moved the other way, each by a label now read as one: sealed
// 34's "Copy that:" (an agreeing answer that was unclear is a conflict:
// "any school that already had one … does not get it" is not read as
// the record's exception) and sealed 38's "Minutes:" and "Slack:" (the
// rest of each aligns as an edit of the filed sentence, and what the
// edit changed counts). Later in the round a word that negates itself
// and that the other side never names stopped counting among the
// negations each side says; two sets lost an answer by it: sealed 27's
// configuration with "forfeit_waived_if" (an agreeing answer now
// unclear) and sealed 34's "left charging unattended overnight" (the
// condition it adds is not read, and the negation no longer counts).
// The thirteenth round cost sealed 49 a conflict: "boxed up by 6 the
// night before" is now 6 pm, as the record says, and the option changed
// beside it ("we pack the kitchen ourselves") was only ever caught by the
// hour read wrong. Three more answers went when "under-21s" and
// "under-12" became ages: sealed 25 (the licence held "at least a year"
// is now a number added, unclear, where the age read wrong made it a
// conflict), sealed 30 (the riders per instructor swapped between arena
// and hacks were caught only by the age read wrong) and sealed 26 ("no
// later than 3 working days before" now aligns with "at least 3 working
// days before", and the edit left reads "terms of business" → "TOB").
//
// Sealed 64 to 67 were written for the round of 2026-12-03 (fourteenth
// part: education and childcare; law, courts and public administration;
// media and entertainment production; housing and home services) and
// measured at 6351c65, summary lines only: 0.68 / 0.79 / 0.78; 13%,
// 0.71 / 0.98 / 0.86; 8%, 0.60 / 0.85 / 0.89; 27% and 0.58 / 0.98 / 0.78;
// 24%. None of them was read. The round's readings (newtons, "irrespective
// of") changed none of their answers.
//
// The fifteenth round cost three sets an answer each, where a reading
// made two positions align as an edit of one sentence and the edit left
// a word reworded that counts: sealed 30 ("otherwise" now "if not"; the
// machine's "telemetry" said as its "own data"), sealed 34 (a numbered
// label, "Release notes 2.4:", no longer read; "the app now checks"
// against "verify") and sealed 55 ("plus 10% plus 2 mph" now read as
// "+ 10% + 2 mph"; "recorded three times" against "third recording"),
// and one near miss of sealed 55 is now found and answered unclear.
// Sealed 68 (money: banking, insurance, pensions, bookkeeping) and 69
// (software and IT operations) were written for that round and measured
// on its base (0ab4aef) and at its end, summary lines only: 0.50 / 0.77 /
// 0.92; 27% and 0.58 / 0.82 / 0.97; 34%, the same answers both times.
// Neither was read. In the round after it, a sign before a share ("+
// 25%", "list -15%") became "plus" and "minus" and a tolerance ("±2%",
// "+/- 2%", "plus or minus 2%") one word: sealed 31 lost one conflict,
// whose "±1 second per minute" had differed from "every minute" and now
// matches, leaving "can still be used for hire while it waits" against
// "must not be used for hire until" unread; one of its agreeing rewordings
// ("±1 s per minute") is now consistent.
//
// The sixteenth round (2026-12-06) reads "one in every ten" as the share
// "1 in 10", and "whichever is sooner" as "whichever comes first"; it
// finds a question by what its position restates when each side names
// what it speaks of in a word of its own (coverOf's foreign mark no
// longer keeps it out when the position states the record's rule with
// every number of it, in other words than the filed sentence, and the
// lexicon does not know both words apart: restatesRule); and it knows
// some everyday words near in meaning ("fee" and "charge", "inspect" and
// "check"); "missing from the list" is "not on the list". Over every
// set, 35 more agreeing rewordings are consistent and two more near
// misses are found. It cost sealed 46 its two near misses ("roasting
// meat dishes at the neighbourhood oven" for the bread the record bakes
// there, the opening hours on a pharmacy's door for the duty pharmacy),
// each position a rewording of the record's with every number of it:
// none 0.80 → 0.75 (27 of 36).
//
// The seventeenth round (2026-12-06, third session) reads "cut-off" as a
// time limit (near "deadline" and "limit"), no longer as "cut", a
// decrease. Over every set, eight answers are right that were not and
// two are wrong that were right; both of those were found only because
// "cut" and "drop-off" each read as "decrease". One is sealed 59's
// "unaccompanied trailer cut-off at the port", asked of the record of
// trailers dropped off at the port: conflict 0.87 → 0.85 (53 of 62).
//
// The eighteenth round (2026-12-06, seventh session) reads an exception
// with an outcome of its own ("unless X, then …"), a rule said not to be
// needed under a case, and "the only way out is if X". Eleven answers are
// right that were not, none wrong that was right. One agreeing rewording
// of sealed 52, a configuration whose "waived only if" was read as a
// negated condition (unclear), now reads its condition and is answered
// conflict for its comment "no verbal opt-out", which says again what
// "declines in writing" says: paraphrases answered conflict 0.20 → 0.21
// (13 of 62). The round then reads "don't go out unless", an exception's
// own rule after ", when", and finds the related records of a check by
// the five rarest words of the question rather than three: 22 more
// questions found, 17 of them agreeing rewordings now consistent. It
// cost sealed 35 a near miss found (the response to an out-of-range
// vaccine fridge reading, asked of the record of twice-daily logging:
// none 0.91 → 0.89, 32 of 36), and sealed 25 an agreeing rewording found
// and answered conflict rather than none ("so you don't have to" read
// against the rule's binding words: paraphrases 0.25 → 0.26, 16 of 62).
//
// The nineteenth round (2026-12-06, eighth session) reads a greeting, a
// label that says nothing ("Please note") and a sign-off around the rule
// as no part of it; "inside 28 days", "in 3 days max" and "at the latest"
// as within; "as well" as "also", "together with" as "with", "all the
// film" as the whole film; a time of day in words ("twenty past eight",
// "ten to six", "at ten thirty"); "better if" as a recommendation; and
// "up to" before no amount as no bound. Over every set, eight more
// agreeing rewordings are consistent, as many conflicts are found, and
// eight fewer agreeing rewordings are answered conflict. Three sets lost
// an answer each where a reading made two positions align as an edit of
// one sentence and the edit left a word reworded that counts, or took
// away what had made a conflict for the wrong reason: sealed 29 ("Cheers,
// Mark" after the rule had been the only difference read in a position
// that changes it: conflict 0.74 → 0.72, 45 of 62, now unclear), sealed
// 40 ("inside 10 working days" now aligns, and the log label "Log, 0900:"
// is read as words added: paraphrases 0.10 → 0.12, 7 of 62) and sealed
// 67 ("inside 10 working days" now aligns, leaving "wind stronger than 25
// mph" against "above 25 mph": consistent 0.59 → 0.58 and paraphrases
// 0.23 → 0.25, 15 of 62). Reading "stronger than" as "above" mends sealed
// 67 but made five other rewordings align as edits with a word left that
// counts; it was left out. The round then reads "this does not apply if
// X" as "unless X", carries a negation over "or" to the verb after it
// ("never close the account or change the address"), keeps a verb after
// "are" or "is" out of the object of a negated verb before it, and reads
// "unpaid", "unsold" and the like as negated: six more agreeing
// rewordings consistent. It cost sealed 60 an agreeing rewording now
// answered conflict rather than unclear: "it stays unlit" is now "not
// lit", and "lit only when no fire-risk warning is posted" against "if
// there's a fire-risk warning up, it stays unlit" reads as the negation
// moved from the warning to the lighting (paraphrases 0.13 → 0.15, 9 of
// 62). A helper session's review of the round, with pairs of its own,
// found "five to ten" read as a time where it was a range, and "up to
// midday" as no bound; both were narrowed, "is better" no longer reads as
// a recommendation ("lower is better"), and "bring" is no longer near
// "accompany" ("Pupils must be accompanied" against "must bring a packed
// lunch"). That gave back sealed 53's "one adult can bring maximum four
// children" against "may accompany up to 4": consistent 0.72 → 0.70 and
// paraphrases 0.20 → 0.21 (13 of 62). A name only in a greeting or a
// sign-off is no name of the rule ("Kia ora, … Ruby").
//
// The twentieth round (2026-12-06, ninth session) reads "no train below
// 75% is permitted to leave" and "nobody under 18 is treated" as the bound
// saying which trains or people and the "no" said of what they do, as
// "trains below 75% are not allowed to leave" says it (a bound after "no"
// and its noun, with a verb after it; "no loaf below 776 g" alone stays a
// limit): three more agreeing rewordings consistent (sealed 27, 58, 64),
// none lost. It then reads "in advance" and "beforehand" as "before",
// "during the previous 60 days" as the window "in the last 60 days" says
// (no condition), and a condition that only says the thing reaches the
// rule ("when it comes in", "once it reaches the office") as no case of
// its own: ten more agreeing rewordings consistent and seven fewer
// answered conflict over every set (with a helper session's review: "the
// last 3 days of the month" is no window counted back, "if it happens
// again" a case of its own). "afterwards" read as "after" (so "48 hours
// beforehand" against "48 hours afterwards" is a change, where it read as
// the same) cost sealed 24 an answer: "resumed within 10 seconds after
// it" against "no more than 10 seconds afterwards" now aligns as an edit,
// and "confirms → checks" is left (consistent 0.61 → 0.59, paraphrases
// 0.20 → 0.21, 13 of 62). A position that agrees with the limit the "no"
// reading also says ("no fee above 50 dollars may be charged": at most 50)
// agrees (a second comparison, analyzeAsLimit): no set's answer changed. Two sets lost an answer, each where
// "beforehand" now aligns a position as an edit of the filed sentence and
// the words the edit leaves count: sealed 60 ("1840 bothy check.
// Reminded party of two: …": consistent 0.80 → 0.79, paraphrases 0.15 →
// 0.17, 10 of 62) and sealed 19 (an agreeing rewording answered conflict
// rather than unclear, "any 14-day period" against "per fortnight":
// paraphrases 0.10 → 0.12, 7 of 62).
//
// The twenty-first round (2026-12-06, tenth session) reads a deadline said
// by its word ("within 72 hours of arrival", "by 12 noon", "in 24 hours")
// as the bound "a maximum of 72 hours after", "no later than 12 noon" and
// "no more than 24 hours" say in words, and "by 14 days before departure"
// as "no later than 14 days before" (at least 14 days before): four more
// agreeing rewordings consistent (sealed 34, 43, 45, 66), none lost. A
// time of day is read with its side ("by 7 am" against "after 7 am") and
// "at least an hour after the curtain" against "within an hour of it":
// no set's answer changed; the tests of readings27_test.go hold the cases.
// A configuration key that says "every" and a unit with its number after
// it ("replace_every_months: 6") is then read as one period: five more
// agreeing rewordings consistent (sealed 36, 37, 39, 45), none lost.
// A rule given as a syslog line (RFC 5424) or after a step counter is
// read without them: three more (sealed 69), none lost. A question asked
// in words of its own whose position shares half its content with the
// record's, naming something of it and no object of its own, is then
// found: eighteen more agreeing rewordings consistent and four more
// conflicts found over every set, no near miss found (floors raised in
// sealed 17, 21, 22, 23, 27, 28, 29, 31, 38, 43, 52, 53, 56, 58). A
// helper session's review with 233 questions of its own (118 near
// misses) found three near misses the path let through ("can I go
// overdrawn on my savings account?" for a current account's rule: the
// record's word a qualifier, so no object of the record's stands where
// the question's does). The path then also asks that the question's
// topic name no word, said again in its position, that the record never
// names (namesOwn): the three kept out, its two gains kept; on the sets
// two answers went back to none (sealed 22 conflict 0.77 → 0.75, sealed
// 38 consistent 0.69 → 0.67).
//
// Words cut short in everyday use ("meds", "paeds", "genny", "Rx",
// "uni", "fridge", "TV") then joined their full words: over every set
// five more agreeing rewordings consistent and five more conflicts
// found, one conflict lost (sealed 16 0.64 → 0.62: "E-bikes" said of the
// night only, now unclear), and four agreeing rewordings, one of them
// found only now, answered conflict where they were none or unclear: the
// words now read as one, the comparison reads a negation or an exception
// apart (sealed 42 12% → 13%, 46 26% → 28%, 51 13% → 15%, 59 17% →
// 18%). The floors the change raised were raised (sealed 17, 18, 21, 31,
// 32, 33, 38, 51, 52, 59, 64, 66). "whatever's left" and "whatever
// remains" then named what remains rather than setting a condition
// aside, and "whichever comes first" in quotes picked one: two more
// agreeing rewordings consistent (sealed 32, 35; floors raised), none
// lost. A count said in a window of time ("3 nights in any 14-day
// period") then read as the same count per that period ("per
// fortnight"), and per another period as changed: one more agreeing
// rewording consistent (sealed 19) and one more conflict found (sealed
// 24: "20 a week" against "20 a month"), floors raised, none lost. A
// review of the clipped words with pairs of its own took "rn", "peds"
// and "demo" out of them, and "vetting" out of "vet": sealed 42 back to
// 12%. The kind a rule names of a thing said beside another ("a student
// card" against "a student or staff card") then read as the rule
// widened: five more conflicts found (sealed 17, 50, 64 twice, 69;
// floors raised), none lost. A review with pairs of its own found it
// read one kind said twice as two ("sick or unwell pupils", "a bank or
// public holiday"); it now asks for a word that covers every kind
// ("every", "any", "whether", "no") before the two, and two of the five
// went back to consistent (sealed 50 0.80 → 0.79, 64 0.82 → 0.80).
//
// The forms of one word then read as one ("time" and "times", "add" and
// "added", "business" and "businesses"), and words the suffix rules cut
// down to others kept their own ("care" no "car", "wedding" no
// "Wednesday", "secure" no "second", "mining" no "minute"). Over every
// set two more agreeing rewordings consistent and one more conflict
// found (floors raised: sealed 34, 39, 66); three floors lowered, each
// a miss that had been right by the wrong reading: sealed 29 0.74 →
// 0.73 (the cue-timing question, "lead time" now the record's "timing",
// is found as a question in words of its own and its swapped numbers
// answered unclear, no longer found by its position alone), sealed 54
// 0.92 → 0.90 ("a secure floor" dropped from a rule was a change only
// while "secure" read as a second), sealed 65 6% → 8% (an elector rule
// written as a Tcl dict, unclear before, now a conflict on "not
// matched"). An ordinal in a topic then read as its number with or
// without "the" before it ("sixth form study centre noise"): one more
// conflict found (sealed 64; floor raised), none lost. "confirms that"
// then read as near "checks that": one more agreeing rewording
// consistent (sealed 24; floors raised), none lost.
//
// A review of those readings then read "-ure" as "-ur" ("measure" and
// "measured", "ensure" and "ensuring" alike; a posture no post),
// "freed" as free, "patrolled" as patrol, an ordinal in a topic as a
// place (the third shift is not three shifts) and "confirm" with a
// booking or an offer as no check: two more agreeing rewordings
// consistent and one more conflict found over every set (floors raised:
// sealed 18, 24, 55), and one floor lowered, a miss that had been right
// by the wrong reading: sealed 69 0.70 → 0.69, paraphrases answered
// conflict 0.21 → 0.23 (the checkout SLO "measured at the load balancer
// and excluding requests rejected with 4xx" against "we measure it at
// the load balancer and don't count the requests …": "measured" and
// "measure" now read alike, and "excluding" against "don't count" is
// read as a change).
//
// The readings of the next part (a negation said with force, words of
// one family and acronyms in a topic, conditions said another way, roles
// and options traded, "each time", "not only" and "out of scope") lost
// nothing in any set; the floors of the 35 sets that rose, here and in
// the part before, are raised to what they measure.
//
// Reading an option set aside only for a case ("a rolling hot meal is
// served instead" against "… instead of lunch"), a case that takes back
// what is stated elsewhere as an exception, and a clause denying a word
// of the rule to what the other side excepts made ten agreeing
// rewordings consistent over every set and lowered one floor, a conflict
// that had been found by the wrong reading: sealed 66 conflict 0.88 →
// 0.87 (the crew meal rule that caps every shoot day at 10 hours, where
// the filed rule caps only the French hours day, had read "lunch" as
// turned; the cap's reach is the change, and it is not read); its
// consistent floor rose 0.67 → 0.69 and its paraphrase ceiling fell
// 0.23 → 0.21.
//
// Values said another way (an ordinal counted on one side only, "monthly"
// against "for the month", "none of the five", "double-check", "one day
// a week" as "once a week", "one metre eighty-five", a rate or a share
// said in two pieces) lowered one floor, a conflict that had been found
// by a wrong reading: sealed 46 conflict 0.82 → 0.80 (the market pitch
// kept "if he comes minimum 3 of every 4 market days … and only if the
// regular did not phone the mairie before": the change is the condition
// added, which is not read; it was found only as "3 out of every 4 → 3",
// the share misread as changed). With the other readings of that part
// (a rule lifted under a case, configuration, options and kinds, a
// need said not to be one, "always … even", "within the hour", an
// acronym spelled out by the other side) the floors of the sets that
// rose are raised to what they measure.
//
// A permission that "only" bounds read as the rule it sets ("dogs may
// travel only on the deck" as "dogs travel only on the deck") and a
// notice said as "are advised that" made six agreeing rewordings
// consistent and lowered one floor, a conflict that had been found by the
// wrong reading: sealed 50 conflict 0.82 → 0.80 (the lecture capture rule
// widened to "teaching, seminars and labs also" was read only as "may opt
// out → opts out"; the kinds added are the change, and they are not
// read). With the other readings of that part (a bound of the subject
// before "not", camelCase values, "but only", a duty left to judgement,
// one bound said two ways, kinds traded in an edit, a number said
// twice, an exception named by its word) the floors of the sets that
// rose are raised to what they measure.
//
// A key that ends with its comparison after its unit read as the bound a
// rule says ("fraud_review_if_total_eur_over" as "if total over 50000
// eur") raised one ceiling: sealed 34 paraphrases answered conflict 0.20
// → 0.21 (the satellite passes' "max_elevation_deg_below: 10" now reads
// "below 10 degrees", which raised the likeness of a pair whose one
// difference, "when two passes overlap" not said, is not read from the
// keys; unclear turned conflict). With the other readings of that part
// (an option set aside in another form of its word, "no X before Y", an
// "only" that narrows to a kind, a case said to be covered like the
// rest, the rule's outcome when it is not met, a bar with an exception
// as "only", a case a sentence opens with) the floors of the sets that
// rose are raised to what they measure.
func TestMeaningSealedLater(t *testing.T) {
	t.Parallel()
	for _, set := range []struct {
		n                                         int
		consistent, conflict, none, paraphraseMax float64
	}{
		{16, 0.58, 0.62, 0.91, 0.02},
		{17, 0.66, 0.72, 0.91, 0.04},
		{18, 0.64, 0.56, 0.91, 0.02},
		{19, 0.70, 0.66, 1.00, 0.09},
		{20, 0.54, 0.59, 1.00, 0.09},
		{21, 0.59, 0.58, 0.91, 0.09},
		{22, 0.58, 0.75, 0.88, 0.12},
		{23, 0.69, 0.72, 0.94, 0.12},
		{24, 0.64, 0.77, 0.88, 0.18},
		{25, 0.69, 0.72, 0.97, 0.21},
		{26, 0.74, 0.77, 0.97, 0.10},
		{27, 0.62, 0.79, 0.97, 0.23},
		{28, 0.82, 0.74, 0.97, 0.05},
		{29, 0.83, 0.77, 0.97, 0.05},
		{30, 0.66, 0.87, 1.00, 0.21},
		{31, 0.69, 0.83, 1.00, 0.18},
		{32, 0.74, 0.82, 1.00, 0.09},
		{33, 0.59, 0.88, 1.00, 0.17},
		{34, 0.72, 0.95, 0.83, 0.20},
		{35, 0.79, 0.98, 0.88, 0.17},
		{36, 0.79, 0.95, 0.88, 0.13},
		{37, 0.72, 0.90, 0.91, 0.10},
		{38, 0.74, 0.88, 0.94, 0.18},
		{39, 0.69, 0.95, 0.86, 0.20},
		{40, 0.85, 0.93, 0.83, 0.04},
		{41, 0.75, 0.93, 0.86, 0.12},
		{42, 0.83, 1.00, 0.80, 0.10},
		{43, 0.83, 0.96, 0.80, 0.12},
		{44, 0.74, 0.95, 0.91, 0.13},
		{45, 0.75, 0.93, 0.83, 0.15},
		{46, 0.72, 0.82, 0.75, 0.23},
		{47, 0.88, 0.88, 0.86, 0.09},
		{48, 0.82, 0.95, 0.86, 0.09},
		{49, 0.74, 0.79, 0.86, 0.20},
		{50, 0.82, 0.83, 0.91, 0.15},
		{51, 0.69, 0.91, 0.80, 0.15},
		{52, 0.77, 0.95, 0.97, 0.15},
		{53, 0.77, 1.00, 0.86, 0.20},
		{54, 0.70, 0.95, 0.77, 0.20},
		{55, 0.82, 0.95, 0.80, 0.15},
		{56, 0.83, 0.88, 0.97, 0.12},
		{57, 0.64, 1.00, 0.91, 0.23},
		{58, 0.75, 0.88, 0.77, 0.17},
		{59, 0.69, 0.91, 0.88, 0.15},
		{60, 0.82, 0.82, 0.97, 0.15},
		{61, 0.79, 0.91, 0.80, 0.12},
		{62, 0.70, 0.85, 0.86, 0.10},
		{63, 0.70, 0.82, 0.91, 0.15},
		{64, 0.75, 0.87, 0.77, 0.07},
		{65, 0.80, 1.00, 0.86, 0.09},
		{66, 0.74, 0.88, 0.88, 0.20},
		{67, 0.64, 0.98, 0.77, 0.21},
		{68, 0.62, 0.83, 0.91, 0.21},
		{69, 0.74, 0.95, 0.97, 0.18},
	} {
		t.Run(fmt.Sprintf("sealed%d", set.n), func(t *testing.T) {
			t.Parallel()
			f := runMeaning(t, fmt.Sprintf("testdata/meaning/sealed%d.txt", set.n))
			f.log(t, fmt.Sprintf("sealed %d", set.n))
			f.guard(t, fmt.Sprintf("sealed %d", set.n), "held-out measurement", set.consistent, set.conflict, set.none, set.paraphraseMax)
		})
	}
}
