package transcripts_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/transcripts"
	"github.com/parleyhq/parley/vault"
)

// say is one scripted turn: "round|position|counter_to|confidence".
func script(entries ...string) string {
	var out []string
	for _, e := range entries {
		f := strings.Split(e, "|")
		for len(f) < 4 {
			f = append(f, "0")
		}
		out = append(out, fmt.Sprintf(`{"round":%s,"position":%q,"counter_to":%q,"confidence_change":%s,"tokens":40,"text":"as argued"}`, f[0], f[1], f[2], f[3]))
	}
	return `{"turns":[` + strings.Join(out, ",") + `]}`
}

// One transcript is fed to the record writer (consensus, through the
// filing), the debate page (the vault page and the Markdown rendering), the
// text and HTML views and the JSON view: every one of them says, for every
// turn, what the verdict's own analysis (debate.Replay of the journal)
// says that turn counted as, and the record's agreed round is the
// verdict's.
func TestRecordPagesAndViewsAgreeWithTheVerdict(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		position string
		rounds   int
		agents   [][3]string // name, role, script
		verdict  debate.Verdict
	}{{
		name: "deadlock after new, repeated, holds and revises", position: "Retries are capped at five", rounds: 4,
		agents: [][3]string{
			{"Mara", "attacker", script("1|Caps hide a dead dependency|Retries are capped at five|-1", "2|Caps hide a dead dependency|Capped, with jittered backoff|-1", "3|Caps hide a dead dependency|Capped, with jittered backoff|-1")},
			{"Olu", "attacker", script("1|Jitter is missing|Retries are capped at five|-1", "2|Five is arbitrary for batch jobs|Capped, with jittered backoff|-1", "3|Five is arbitrary for batch jobs|Capped, with jittered backoff|-1")},
			{"Reva", "defender", script("1|Retries are capped at five|", "2|Capped, with jittered backoff|", "3|Capped, with jittered backoff|")},
		},
		verdict: debate.Deadlock,
	}, {
		name: "budget exhausted on the last agreed round", position: "Ship the parser behind a flag", rounds: 2,
		agents: [][3]string{
			{"Quill", "attacker", script("1|Ship the parser behind a flag|the rollout plan|-1", "2|The flag needs an owner|Ship the parser behind a flag|-1")},
			{"Sten", "attacker", script("1|ship the parser behind a flag.|the rollout plan|-1", "2|Ship the parser behind a flag|the rollout plan|-1")},
			{"Tamsin", "defender", script("1|Ship the parser behind a flag|", "2|Ship the parser behind a flag|")},
		},
		verdict: debate.BudgetExhausted,
	}, {
		name: "adopted while another attacker concedes", position: "", rounds: 3,
		agents: [][3]string{
			{"Ines", "attacker", script("1|Index the audit log by tenant and day|Index by day only|-1")},
			{"Jory", "attacker", script("1|||0")},
			{"Kell", "defender", script("1|Index the audit log by tenant and day|")},
		},
		verdict: debate.ConsensusReached,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			store, err := transcripts.OpenStore(root, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer store.Close()
			if err := os.Mkdir(filepath.Join(root, "vault"), 0o700); err != nil {
				t.Fatal(err)
			}
			v, err := vault.Open(filepath.Join(root, "vault"))
			if err != nil {
				t.Fatal(err)
			}
			defer v.Close()
			cs, err := consensus.Open(root, v)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			tr := inbox.NewMemTransport()
			id := debate.NewID(fixedNow, debate.LayerPlan, tc.name)
			sess := &debate.DebateSession{
				ID: id, Topic: "Agreement: " + tc.name, Layer: debate.LayerPlan, Position: tc.position,
				Coordinator: debate.CoordinatorName(id), Created: inbox.Now(),
				Budget: debate.ConsensusBudget{MaxRounds: tc.rounds, MaxTokens: 60000, MaxTokensPerRound: 2000, MaxWallClockMs: 60000, ConvergenceRounds: 1},
			}
			for _, a := range tc.agents {
				sess.Participants = append(sess.Participants, debate.Participant{Name: a[0], Role: debate.Role(a[1])})
				startAgent(t, tr, a[0], a[2])
			}
			log, err := store.Create(context.Background(), sess)
			if err != nil {
				t.Fatal(err)
			}
			c := &debate.Coordinator{Messenger: tr, Journal: log, Filer: &transcripts.Filer{Store: store, Vault: v, Records: cs}}
			ran, err := c.Start(context.Background(), sess)
			log.Close()
			if err != nil {
				t.Fatal(err)
			}
			if ran.Verdict != tc.verdict {
				t.Fatalf("verdict %s (%s), want %s", ran.Verdict, ran.Reason, tc.verdict)
			}

			// The verdict's analysis, as the journal replays it.
			events, err := store.Events(id)
			if err != nil {
				t.Fatal(err)
			}
			st, err := debate.Replay(events)
			if err != nil {
				t.Fatal(err)
			}
			verdict := st.Verdict
			if !slices.Equal(labels(verdict.Decisions), labels(ran.Decisions)) || verdict.AgreedRound != ran.AgreedRound {
				t.Fatalf("replayed analysis %q (agreed %d) differs from the run's %q (agreed %d)", labels(verdict.Decisions), verdict.AgreedRound, labels(ran.Decisions), ran.AgreedRound)
			}
			var want []string // per turn, in speaking order
			for _, d := range verdict.Decisions {
				if d.Forfeit == "" {
					want = append(want, d.Agent+": "+d.Label())
				}
			}

			// The views.
			tx, err := store.Read(id)
			if err != nil {
				t.Fatal(err)
			}
			view := transcripts.NewView(tx)
			var fromView []string
			for _, r := range view.Rounds {
				for _, e := range r.Entries {
					if e.Turn != nil {
						fromView = append(fromView, e.Turn.Agent+": "+labelOf(e.Decision))
					}
				}
			}
			check(t, "view", fromView, want)
			data, err := json.Marshal(view)
			if err != nil {
				t.Fatal(err)
			}
			var decoded struct {
				Rounds []struct {
					Entries []struct {
						Turn     *struct{ Agent string } `json:"turn"`
						Decision *debate.Decision        `json:"decision"`
					} `json:"entries"`
				} `json:"rounds"`
			}
			if err := json.Unmarshal(data, &decoded); err != nil {
				t.Fatal(err)
			}
			var fromJSON []string
			for _, r := range decoded.Rounds {
				for _, e := range r.Entries {
					if e.Turn != nil {
						fromJSON = append(fromJSON, e.Turn.Agent+": "+labelOf(e.Decision))
					}
				}
			}
			check(t, "JSON view", fromJSON, want)
			var text bytes.Buffer
			if err := transcripts.RenderText(&text, view); err != nil {
				t.Fatal(err)
			}
			check(t, "text view", counted(text.String(), `(?m)^(\S+) \(\w+\) ·.*$\n(?:(?:  (?:Position|Counters|No further).*\n))*  Counted as: (.+)$`), want)

			// The debate page: the one in the vault, and the one rendered.
			page, err := os.ReadFile(filepath.Join(root, "vault", filepath.FromSlash(transcripts.PagePath(id))))
			if err != nil {
				t.Fatal(err)
			}
			pageRE := `(?m)^### (\S+) \(\w+\) — .*$\n\n(?:- \*\*(?:Position|Counters|No further|Confidence).*\n)*- \*\*Counted as:\*\* (.+)$`
			check(t, "vault page", counted(string(page), pageRE), want)
			check(t, "Markdown view", counted(string(transcripts.RenderMarkdownView(view)), pageRE), want)

			// The record: one table row per round, formatted from the
			// same decisions; the agreed round of an exhausted budget.
			record, err := os.ReadFile(filepath.Join(root, "vault", filepath.FromSlash(ran.Record)))
			if err != nil {
				t.Fatal(err)
			}
			for r := 1; r <= verdict.Rounds; r++ {
				row := regexp.MustCompile(fmt.Sprintf(`(?m)^\| %d \| .* \| .* \| (.*) \|$`, r)).FindStringSubmatch(string(record))
				if row == nil {
					t.Fatalf("record has no row for round %d:\n%s", r, record)
				}
				if got, w := row[1], outcomeCell(verdict.Decisions, r); got != w {
					t.Errorf("record, round %d: outcome %q, the verdict's analysis says %q", r, got, w)
				}
			}
			if verdict.Verdict == debate.BudgetExhausted {
				if verdict.AgreedRound == 0 || !strings.Contains(string(record), fmt.Sprintf("same position in round %d;", verdict.AgreedRound)) {
					t.Errorf("record does not name the agreed round %d:\n%s", verdict.AgreedRound, record)
				}
			}
			if verdict.Verdict == debate.Deadlock {
				for _, d := range verdict.Decisions {
					if d.Round == verdict.Rounds && d.Counter == debate.CounterRepeated &&
						!strings.Contains(string(record), fmt.Sprintf("%s repeated in round %d the counter first made in round %d", d.Agent, d.Round, d.FirstRound)) {
						t.Errorf("record's deadlock analysis does not say %s repeated round %d's counter:\n%s", d.Agent, d.FirstRound, record)
					}
				}
			}
		})
	}
}

var fixedNow = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

func labels(ds []debate.Decision) []string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("r%d %s %s", d.Round, d.Agent, d.Label()))
	}
	return out
}

func labelOf(d *debate.Decision) string {
	if d == nil {
		return "(none)"
	}
	return d.Label()
}

func counted(s, pattern string) []string {
	var out []string
	for _, m := range regexp.MustCompile(pattern).FindAllStringSubmatch(s, -1) {
		out = append(out, m[1]+": "+strings.ReplaceAll(m[2], `\'`, "'"))
	}
	return out
}

func check(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s disagrees with the verdict:\n got %q\nwant %q", what, got, want)
	}
}

// outcomeCell is the record's Outcome column for round r as the verdict's
// decisions spell it.
func outcomeCell(ds []debate.Decision, r int) string {
	fresh, repeated, conceding, attackers := 0, 0, 0, 0
	var stance []string
	for _, d := range ds {
		if d.Round != r || d.Forfeit != "" {
			continue
		}
		switch d.Role {
		case debate.RoleAttacker:
			attackers++
			switch d.Counter {
			case debate.CounterNew:
				fresh++
			case debate.CounterRepeated:
				repeated++
			case debate.CounterConceding:
				conceding++
			}
		case debate.RoleDefender:
			stance = append(stance, "defender "+d.Label())
		}
	}
	if attackers > 0 && conceding == attackers {
		return strings.Join(append([]string{"attackers concede"}, stance...), "; ")
	}
	var parts []string
	if repeated > 0 {
		parts = append(parts, fmt.Sprintf("%d repeated counter(s)", repeated))
	}
	if fresh > 0 {
		parts = append(parts, fmt.Sprintf("%d new counter(s)", fresh))
	}
	parts = append(parts, stance...)
	if conceding > 0 {
		parts = append(parts, fmt.Sprintf("%d attacker(s) concede", conceding))
	}
	return strings.Join(parts, "; ")
}
