package gating

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/parleyhq/parley/debate"
)

// TestOutcomeLabel pins which verdicts label what.
func TestOutcomeLabel(t *testing.T) {
	t.Parallel()
	const opening = "Use UUIDv7 keys"
	h := debate.PositionHash
	cases := []struct {
		name string
		o    debate.Outcome
		want Outcome // "" = no label
	}{
		{"attacker's position adopted", debate.Outcome{Verdict: debate.ConsensusReached, Rule: debate.RuleAdopted, Rounds: 2,
			FinalPosition: "Hash the body", FinalPositionHash: h("Hash the body"), DefenderPosition: "Hash the body"}, Debate},
		{"answer changed, then conceded", debate.Outcome{Verdict: debate.ConsensusReached, Rule: debate.RuleConceded, Rounds: 2,
			FinalPosition: "Use UUIDv7 keys with a 24h window", FinalPositionHash: h("Use UUIDv7 keys with a 24h window"), DefenderPosition: "Use UUIDv7 keys with a 24h window"}, Debate},
		{"conceded in round 1, unchanged", debate.Outcome{Verdict: debate.ConsensusReached, Rule: debate.RuleConceded, Rounds: 1,
			FinalPosition: opening, FinalPositionHash: h(opening), DefenderPosition: opening}, Skip},
		{"conceded in round 3, unchanged", debate.Outcome{Verdict: debate.ConsensusReached, Rule: debate.RuleConceded, Rounds: 3,
			FinalPosition: opening, FinalPositionHash: h(opening), DefenderPosition: opening}, ""},
		{"survived", debate.Outcome{Verdict: debate.ConsensusReached, Rule: debate.RuleSurvived, Rounds: 3,
			FinalPosition: opening, FinalPositionHash: h(opening), DefenderPosition: opening}, ""},
		{"deadlock", debate.Outcome{Verdict: debate.Deadlock, Rule: debate.RuleRepeated, Rounds: 3, DefenderPosition: opening}, ""},
		{"budget exhausted", debate.Outcome{Verdict: debate.BudgetExhausted, Rule: debate.RuleMaxTokens, Rounds: 2, DefenderPosition: "other"}, ""},
		{"timeout", debate.Outcome{Verdict: debate.Timeout, Rule: debate.RuleWallClock, Rounds: 1, DefenderPosition: opening}, ""},
		{"an agent unavailable", debate.Outcome{Verdict: debate.Unavailable, Rule: debate.RuleUnavailable, Rounds: 1, DefenderPosition: opening}, ""},
	}
	for _, c := range cases {
		got, why, ok := OutcomeLabel(&c.o, opening)
		if got != c.want || ok != (c.want != "") || ok && why == "" {
			t.Errorf("%s: label %q (%v, %q), want %q", c.name, got, ok, why, c.want)
		}
	}
}

func TestParseLabelLine(t *testing.T) {
	t.Parallel()
	e, err := ParseLabelLine([]byte(`{"layer":"plan","text":"**Draft:** ship Friday\n**Concerns:** nobody on call\n**Final:** ship Tuesday","label":"debate"}`))
	if err != nil {
		t.Fatal(err)
	}
	if e.Label != Debate || e.Layer != debate.LayerPlan || e.InitialAnswer != "ship Friday" || e.FinalAnswer != "ship Tuesday" || !strings.Contains(e.Critique, "on call") {
		t.Errorf("text label read as %+v", e)
	}
	e, err = ParseLabelLine([]byte(`{"critique":"TestX passes","final_confidence":"90%","label":"skip","id":"mine-1"}`))
	if err != nil || e.Label != Skip || *e.FinalConfidence != 0.9 || e.ID != "mine-1" {
		t.Errorf("field label: %+v %v", e, err)
	}
	for _, bad := range []string{`{"critique":"c","label":"maybe"}`, `{"critique":"c"}`, `{"text":"t","critique":"c","label":"skip"}`,
		`{"text":"","label":"skip"}`, `{"critique":"c","label":"skip","extra":1}`, `not json`, `{"layer":"deploy","text":"t","label":"skip"}`} {
		if _, err := ParseLabelLine([]byte(bad)); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
	if _, err := ReadLabelInput(strings.NewReader("{\"critique\":\"a\",\"label\":\"skip\"}\n\n{\"critique\":\"b\",\"label\":\"nope\"}\n")); err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("bad third line: %v", err)
	}
}

func TestFindDecision(t *testing.T) {
	t.Parallel()
	entries := []LogEntry{{ID: "3f9a2c1e"}, {ID: "3f9b0000"}, {ID: "a0000000"}}
	if e, err := FindDecision(entries, "A0"); err != nil || e.ID != "a0000000" {
		t.Errorf("prefix: %v %v", e, err)
	}
	if _, err := FindDecision(entries, "3f9"); err == nil || !strings.Contains(err.Error(), "ambiguous") {
		t.Errorf("ambiguous prefix: %v", err)
	}
	if _, err := FindDecision(entries, "ffff"); err == nil {
		t.Error("unknown id found")
	}
	if e, err := FindDecision(entries, "3f9a2c1e"); err != nil || e.ID != "3f9a2c1e" {
		t.Errorf("full id: %v %v", e, err)
	}
}

func TestLabelsRoundTrip(t *testing.T) {
	t.Parallel()
	root, err := os.OpenRoot(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	ls := []Label{{Time: "t", Source: SourceUser, Label: Skip, Input: SelfCritique{Critique: "ok"}},
		{Time: "t", Source: SourceOutcome, Label: Debate, DecisionID: "d", DebateID: "x", Input: SelfCritique{Critique: "hm", Layer: debate.LayerSpec}}}
	if err := AppendLabels(root, ls); err != nil {
		t.Fatal(err)
	}
	f, err := root.OpenFile(LabelsName, os.O_RDWR|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"time":"t","source":"martian","label":"skip","input":{"critique":"c"}}` + "\n" + `{"torn`)
	f.Close()
	if err := AppendLabels(root, ls[:1]); err != nil {
		t.Fatal(err)
	}
	f, _ = root.Open(LabelsName)
	defer f.Close()
	got, bad, err := ReadLabels(f)
	if err != nil || len(got) != 3 || bad != 2 {
		t.Fatalf("read back %d labels, %d bad, %v", len(got), bad, err)
	}
	if got[1].Example().Weight != OutcomeLabelWeight || got[0].Example().Weight != UserLabelWeight || UserLabelWeight <= OutcomeLabelWeight {
		t.Error("user labels must weigh more than outcome labels")
	}
	fi, _ := root.Stat(LabelsName)
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("labels.jsonl mode %v", fi.Mode().Perm())
	}
	if _, err := Learn(nil, nil, Default(), LearnOptions{}); !errors.Is(err, ErrCorpus) {
		t.Errorf("learning from no labels: %v", err)
	}
}

func TestSettleKeepsOneLabelPerSelfCritique(t *testing.T) {
	t.Parallel()
	a := SelfCritique{Critique: "I have not run the migration against a copy of production."}
	b := SelfCritique{Critique: "Checked both callers; the nil case returns early.", Layer: debate.LayerVerify}
	parsedA := a
	parsedA.Parsed = &Parsed{Form: "text"}
	user := func(l Outcome, in SelfCritique) Label { return Label{Source: SourceUser, Label: l, Input: in} }
	outcome := func(l Outcome, in SelfCritique) Label { return Label{Source: SourceOutcome, Label: l, Input: in} }
	for _, c := range []struct {
		name string
		in   []Label
		want []Label
	}{
		{"none", nil, nil},
		{"distinct", []Label{user(Debate, a), user(Skip, b)}, []Label{user(Debate, a), user(Skip, b)}},
		{"relabelled: the last wins", []Label{user(Debate, a), user(Skip, b), user(Skip, a)}, []Label{user(Skip, b), user(Skip, a)}},
		{"the same file twice", []Label{user(Skip, b), user(Skip, b)}, []Label{user(Skip, b)}},
		{"its parse is not what it says", []Label{user(Debate, parsedA), user(Skip, a)}, []Label{user(Skip, a)}},
		{"the user outranks a later verdict", []Label{user(Skip, a), outcome(Debate, a)}, []Label{user(Skip, a)}},
		{"the user outranks an earlier verdict", []Label{outcome(Debate, a), user(Skip, a)}, []Label{user(Skip, a)}},
		{"verdicts alone: the last", []Label{outcome(Debate, a), outcome(Skip, a)}, []Label{outcome(Skip, a)}},
	} {
		got := Settle(c.in)
		if len(got) != len(c.want) {
			t.Errorf("%s: %d labels, want %d: %+v", c.name, len(got), len(c.want), got)
			continue
		}
		for i := range got {
			if got[i].Label != c.want[i].Label || got[i].Source != c.want[i].Source || got[i].Input.Critique != c.want[i].Input.Critique {
				t.Errorf("%s: label %d is %+v, want %+v", c.name, i, got[i], c.want[i])
			}
		}

		// The same labels read as a corpus (gate eval, gate train of a
		// labels.jsonl) count as Settle counts them; a corpus line of the
		// same self-critique before them is kept as it is. Before, gate
		// eval counted a relabelled decision once for each label.
		var file bytes.Buffer
		file.WriteString(`{"critique":"I have not run the migration against a copy of production.","label":"debate"}` + "\n")
		for _, l := range c.in {
			b, err := json.Marshal(l)
			if err != nil {
				t.Fatal(err)
			}
			file.Write(append(b, '\n'))
		}
		ex, err := ReadCorpus(&file)
		if err != nil || len(ex) != 1+len(c.want) {
			t.Errorf("%s: read as a corpus, %d examples (%v), want the corpus line and %d", c.name, len(ex), err, len(c.want))
			continue
		}
		for i, w := range c.want {
			if e := ex[1+i]; e.Label != w.Label || e.Critique != w.Input.Critique {
				t.Errorf("%s: read as a corpus, example %d is %s %q, want %s %q", c.name, 1+i, e.Label, e.Critique, w.Label, w.Input.Critique)
			}
		}
	}
}

// A file saved with a UTF-8 byte order mark (Notepad, some PowerShell
// versions) is read as "parley gate" reads one: labels and corpora too,
// whether their first line is a label, an example or a // comment. Before,
// its first line was "not a JSON object".
func TestLabelsAndCorporaReadPastAByteOrderMark(t *testing.T) {
	t.Parallel()
	const bom = "\xef\xbb\xbf"
	for _, first := range []string{"", "// my labels\n"} {
		in := bom + first + `{"critique":"I am not sure the lock is released.","label":"debate"}` + "\r\n" +
			`{"layer":"verify","text":"Fixed; TestX passes.","label":"skip"}` + "\r\n"
		ex, err := ReadLabelInput(strings.NewReader(in))
		if err != nil || len(ex) != 2 || ex[0].Label != Debate || ex[1].Label != Skip {
			t.Errorf("labels after a BOM and %q: %d read, %v", first, len(ex), err)
		}
		corpus := bom + first + `{"critique":"I am not sure the lock is released.","label":"debate"}` + "\n"
		if ex, err := ReadCorpus(strings.NewReader(corpus)); err != nil || len(ex) != 1 {
			t.Errorf("corpus after a BOM and %q: %d read, %v", first, len(ex), err)
		}
	}
	if _, err := ParseLabelLine([]byte(bom + `{"critique":"c","label":"skip"}`)); err != nil {
		t.Errorf("ParseLabelLine: %v", err)
	}
	if _, err := ParseExample([]byte(bom + `{"critique":"c","label":"skip"}`)); err != nil {
		t.Errorf("ParseExample: %v", err)
	}
}

// A label is taken only if labels.jsonl can give it back: a self-critique
// whose JSON escaping would make its line longer than ReadLabels reads
// (markup full of '<', six bytes each) is refused at "gate label", naming
// its line, and AppendLabels writes nothing rather than a line that would
// be skipped. Before, "gate label" said "added 1 label" and "gate learn"
// then skipped it as unreadable and found no labels.
func TestALabelIsTakenOnlyIfItCanBeReadBack(t *testing.T) {
	t.Parallel()
	markup := strings.Repeat(`<<<<<<<<<<<<<<<< maybe <<<<<<<<<<<<<<<<<<<<<<<<<< \n`, 4500)
	in := `{"critique":"fine","label":"skip"}` + "\n" + `{"text":"` + markup + `","label":"debate"}` + "\n"
	if _, err := ReadLabelInput(strings.NewReader(in)); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("ReadLabelInput: %v, want ErrTooLarge on line 2", err)
	}

	root, err := os.OpenRoot(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	sc, err := ParseBytes([]byte(strings.ReplaceAll(markup, `\n`, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	big := Label{Time: "t", Source: SourceUser, Label: Debate, Input: sc}
	small := Label{Time: "t", Source: SourceUser, Label: Skip, Input: SelfCritique{Critique: "fine"}}
	if err := AppendLabels(root, []Label{small, big}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("AppendLabels: %v, want ErrTooLarge", err)
	}
	if _, err := root.Stat(LabelsName); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("something was written: %v", err)
	}

	// Under the bound, a label with escapes is read back whole.
	ok := `{"text":"` + strings.Repeat(`I am not sure <a> holds. \n`, 2000) + `","label":"debate"}`
	ex, err := ReadLabelInput(strings.NewReader(ok))
	if err != nil || len(ex) != 1 {
		t.Fatalf("ReadLabelInput: %d, %v", len(ex), err)
	}
	if err := AppendLabels(root, []Label{{Time: "t", Source: SourceUser, Label: ex[0].Label, Input: ex[0].SelfCritique}}); err != nil {
		t.Fatal(err)
	}
	f, err := root.Open(LabelsName)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got, bad, err := ReadLabels(f); err != nil || bad != 0 || len(got) != 1 || got[0].Input.Critique != ex[0].Critique {
		t.Errorf("read back %d labels, %d bad, %v", len(got), bad, err)
	}
}

// A line with a missing or unknown label is named once, with what to
// write: "invalid corpus: line 1: label "maybe" is not debate or skip",
// not "invalid corpus: line 1: invalid corpus: label: …", and for "gate
// label" no "invalid corpus" at all (a label file is not a corpus) nor
// "debate or skip" twice. It is still an ErrCorpus.
func TestABadLabelIsSaidOnce(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ line, want string }{
		{`{"critique":"c","label":"maybe"}`, `label "maybe" is not debate or skip`},
		{`{"critique":"c"}`, `no label: add "label": "debate" or "label": "skip"`},
	} {
		_, err := ReadCorpus(strings.NewReader(tc.line + "\n"))
		if !errors.Is(err, ErrCorpus) || err.Error() != "invalid corpus: line 1: "+tc.want {
			t.Errorf("corpus %s: %v", tc.line, err)
		}
		_, err = ReadLabelInput(strings.NewReader(tc.line + "\n"))
		if !errors.Is(err, ErrCorpus) || err.Error() != "line 1: "+tc.want {
			t.Errorf("labels %s: %v", tc.line, err)
		}
	}
}

// A label typed in another case, or with spaces around it, is read as
// the layer beside it is: {"layer":"Verify","label":"Debate"} used to be
// refused with 'label "Debate" is not debate or skip' while its layer was
// taken. It is stored and trained on in lower case; another word is still
// refused.
func TestALabelIsReadInAnyCase(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		label string
		want  Outcome
	}{
		{"Debate", Debate}, {"DEBATE", Debate}, {" debate ", Debate}, {"Skip", Skip}, {"SKIP", Skip}, {`skip\t`, Skip},
	} {
		line := `{"layer":"Verify","critique":"I am not sure the cache key holds.","label":"` + tc.label + `"}` + "\n"
		ex, err := ReadCorpus(strings.NewReader(line))
		if err != nil || len(ex) != 1 || ex[0].Label != tc.want || ex[0].Layer != debate.LayerVerify {
			t.Errorf("corpus label %q: %+v %v; want %s", tc.label, ex, err, tc.want)
		}
		ex, err = ReadLabelInput(strings.NewReader(line))
		if err != nil || len(ex) != 1 || ex[0].Label != tc.want {
			t.Errorf("gate label %q: %+v %v; want %s", tc.label, ex, err, tc.want)
		}
	}
	if _, err := ReadLabelInput(strings.NewReader(`{"critique":"c","label":"débat"}` + "\n")); err == nil || err.Error() != `line 1: label "débat" is not debate or skip` {
		t.Errorf("another word: %v", err)
	}
}

// The labels file parley writes (labels.jsonl) is a file of labels "gate
// label" and a corpus take as they are: "gate label" of another root's
// labels.jsonl, or "gate eval --data" of it, used to stop at line 1 on
// 'unknown key "time"'. Each line gives its self-critique and its label;
// what else it says stays behind.
func TestALabelsFileIsReadBackAsLabels(t *testing.T) {
	t.Parallel()
	root, err := os.OpenRoot(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	conf := 0.9
	labels := []Label{
		{Time: "2026-12-05T01:00:00.000Z", Source: SourceUser, Label: Skip, DecisionID: "3f9a2c1e", Why: "the gate decided debate",
			Input: SelfCritique{Layer: debate.LayerVerify, Critique: "Fixed; TestUpload passes.", FinalConfidence: &conf, EvidenceRefs: []string{"upload_test.go:12"}}},
		{Time: "2026-12-05T01:00:01.000Z", Source: SourceUser, Label: Debate, Why: "mine.jsonl",
			Input: SelfCritique{Question: "Does the retry cover a timeout?", Critique: "I am not sure; I never ran it."}},
	}
	if err := AppendLabels(root, labels); err != nil {
		t.Fatal(err)
	}
	file, err := root.ReadFile(LabelsName)
	if err != nil {
		t.Fatal(err)
	}
	for name, read := range map[string]func() ([]Example, error){
		"gate label": func() ([]Example, error) { return ReadLabelInput(bytes.NewReader(file)) },
		"corpus":     func() ([]Example, error) { return ReadCorpus(bytes.NewReader(file)) },
	} {
		ex, err := read()
		if err != nil || len(ex) != len(labels) {
			t.Fatalf("%s: %d example(s), %v; want %d", name, len(ex), err, len(labels))
		}
		for i, e := range ex {
			if e.Label != labels[i].Label || CritiqueKey(e.SelfCritique) != CritiqueKey(labels[i].Input) {
				t.Errorf("%s, line %d: %s %+v; want %s %+v", name, i+1, e.Label, e.SelfCritique, labels[i].Label, labels[i].Input)
			}
		}
	}
	// A labels.jsonl line is read as strictly as the other shapes.
	_, err = ReadLabelInput(strings.NewReader(`{"time":"t","source":"user","label":"skip","input":{"critique":"c"},"text":"t"}` + "\n"))
	if err == nil || !strings.Contains(err.Error(), `unknown key "text"`) {
		t.Errorf("a labels line with a text as well: %v", err)
	}
}

// lineReader yields line n times, then io.EOF.
type lineReader struct {
	line []byte
	n    int
	off  int
}

func (r *lineReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := copy(p, r.line[r.off:])
	if r.off += k; r.off == len(r.line) {
		r.off, r.n = 0, r.n-1
	}
	return k, nil
}

// Labels beyond MaxCorpusBytes are refused, never cut: "gate label" used
// to read the first 64 MiB and add what it found there, silently dropping
// every label after it (or calling a line cut at the limit malformed).
func TestLabelInputOverTheLimitIsRefusedNotCut(t *testing.T) {
	t.Parallel()
	line := []byte(`{"critique":"I am not sure the lock is released.","label":"debate","id":"` + strings.Repeat("x", 1024-76) + `"}` + "\n")
	if len(line) != 1024 {
		t.Fatalf("line of %d bytes; the test needs 1024", len(line))
	}
	fit := MaxCorpusBytes / len(line) // exactly the limit
	if ex, err := ReadLabelInput(&lineReader{line: line, n: fit}); err != nil || len(ex) != fit {
		t.Fatalf("at the limit: %d labels, %v", len(ex), err)
	}
	for _, extra := range []int{1} {
		ex, err := ReadLabelInput(&lineReader{line: line, n: fit + extra})
		if !errors.Is(err, ErrTooLarge) || ex != nil {
			t.Errorf("%d line(s) over the limit: %d labels, %v; want ErrTooLarge and none", extra, len(ex), err)
		}
	}
}

// A file "parley gate label" takes can be measured and trained on as it
// is ("gate eval --data mine.jsonl", "gate train --data mine.jsonl"): a
// corpus line may give the self-critique as {"layer","text"} too. Before,
// the docs' own label line was refused by eval and train with 'unknown key
// "text"'.
func TestALabelFileIsACorpus(t *testing.T) {
	t.Parallel()
	in := `{"layer":"verify","text":"Fixed; TestX passes.","label":"skip"}` + "\n" +
		`{"text":"**Draft:** ship Friday\n**Concerns:** nobody on call\n**Final:** ship Tuesday","label":"debate","voice":"mine"}` + "\n" +
		`{"critique":"I am not sure the lock is released.","final_confidence":0.4,"label":"debate","id":"f-1"}` + "\n"
	labels, err := ReadLabelInput(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	corpus, err := ReadCorpus(strings.NewReader(in))
	if err != nil {
		t.Fatalf("ReadCorpus: %v", err)
	}
	if len(corpus) != len(labels) {
		t.Fatalf("%d examples, %d labels", len(corpus), len(labels))
	}
	for i := range labels {
		c, l := corpus[i], labels[i]
		if c.Label != l.Label || c.Critique != l.Critique || c.Layer != l.Layer || c.FinalAnswer != l.FinalAnswer || c.Voice != l.Voice || c.ID != l.ID {
			t.Errorf("line %d: corpus %+v, label %+v", i+1, c, l)
		}
	}
	if corpus[0].Layer != debate.LayerVerify || corpus[1].FinalAnswer != "ship Tuesday" || corpus[1].Voice != "mine" || corpus[2].ID != "f-1" {
		t.Errorf("corpus read as %+v", corpus)
	}
	// The fields are still read strictly.
	if _, err := ReadCorpus(strings.NewReader(`{"critique":"c","label":"skip","extra":1}`)); !errors.Is(err, ErrCorpus) {
		t.Errorf("an unknown key: %v", err)
	}
}

// A self-critique given to "gate label" as it is (a Markdown file) is
// told the shape of a label line; before, it was only "not a JSON object".
func TestALabelLineThatIsNoJSONSaysWhatALineIs(t *testing.T) {
	t.Parallel()
	_, err := ReadLabelInput(strings.NewReader("## Self-critique\nI am not sure.\n"))
	if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), `line 1:`) || !strings.Contains(err.Error(), `{"text": "the self-critique", "label": "debate"}`) {
		t.Errorf("err = %v, want line 1 and the shape of a label line", err)
	}
}
