package bench

import (
	"context"
	"strings"
	"testing"

	"github.com/parleyhq/parley/debate"
)

// The generated vault is varied: distinct questions in every form and
// layer, about one in ten debated again, every verdict, positions with
// numbers; and it is the same for a seed.
func TestGenConsensusIsVaried(t *testing.T) {
	cv := genConsensus(2000, 1)
	again := genConsensus(2000, 1)
	topics, layers, verdicts := map[string]int{}, map[debate.Layer]int{}, map[debate.Verdict]int{}
	forms := map[string]int{}
	for i, o := range cv.outcomes {
		if o.Session.Topic != again.outcomes[i].Session.Topic || o.DebateID != again.outcomes[i].DebateID {
			t.Fatalf("outcome %d differs between two runs with one seed", i)
		}
		topics[string(o.Session.Layer)+"/"+o.Session.Topic]++
		layers[o.Session.Layer]++
		verdicts[o.Verdict]++
		switch topic := o.Session.Topic; {
		case strings.HasPrefix(topic, "What "):
			forms["what"]++
		case strings.HasPrefix(topic, "Choosing "):
			forms["choosing"]++
		case strings.Contains(topic, " of "):
			forms["of"]++
		default:
			forms["plain"]++
		}
	}
	if len(topics) < 1700 || len(topics) > 1900 {
		t.Errorf("%d distinct questions in 2000 debates; want about nine in ten", len(topics))
	}
	if len(layers) != len(debate.Layers) || len(verdicts) != 4 || len(forms) != 4 {
		t.Errorf("layers %v verdicts %v forms %v", layers, verdicts, forms)
	}
	kinds := map[string]int{}
	for _, q := range cv.queries(400, 3) {
		kinds[q.kind]++
		if q.kind == "changed" && !strings.ContainsAny(q.position, "0123456789") {
			t.Errorf("a changed position without a number: %q", q.position)
		}
	}
	if len(kinds) != 4 || kinds["same"] != 100 {
		t.Errorf("query kinds %v", kinds)
	}
}

// A small run measures every figure but the new processes (no binary),
// and the checks get the answers their kinds call for.
func TestRunConsensusSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a vault")
	}
	res, err := RunConsensus(context.Background(), ConsensusOptions{Dir: t.TempDir(), Records: 300, Checks: 80, Processes: 1, Filings: 4})
	if err != nil {
		t.Fatal(err)
	}
	if res.Records != 300 || res.Filings != 4 || res.WarmChecks != 80 || res.ImportMs <= 0 || res.ColdRebuildMs <= 0 ||
		res.ReadAllMs <= 0 || res.FilingP50Ms <= 0 || res.PageWriteP50Ms <= 0 || res.WarmCheckP50Us <= 0 || res.SelectP50Us <= 0 {
		t.Errorf("figures %+v", res)
	}
	if res.WarmRecordReads != 0 {
		t.Errorf("warm checks read %d record files", res.WarmRecordReads)
	}
	for _, want := range []string{"same → consistent", "changed → conflict", "reworded → consistent", "unfiled → none"} {
		if res.Answers[want] == 0 {
			t.Errorf("no %q among %v", want, res.Answers)
		}
	}
}
