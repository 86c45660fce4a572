package consensus

import (
	"context"
	"testing"

	"github.com/parleyhq/parley/debate"
)

// A search that matches a question's superseded record better than its
// active one still ranks the active one first: the answer now, then what
// it was. A filter that leaves the active one out leaves it out.
func TestSearchRanksTheActiveRecordBeforeItsSupersededOnes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	e.fileRule(t, debate.LayerSpec, "20261130-spec-rate-limits-aaaaaa", "Rate limits",
		"Rate limits use a token bucket per tenant; the token bucket refills every second; token bucket bursts are capped at 100")
	e.fileRule(t, debate.LayerSpec, "20261201-spec-rate-limits-bbbbbb", "Rate limits", "Rate limits use a sliding window per tenant")
	e.fileRule(t, debate.LayerPlan, "20261130-plan-queue-cccccc", "Queue retries", "A token bucket paces the queue's retries")

	hits, err := e.s.Search(ctx, "rate limits token bucket", Filter{}, 10)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, h := range hits {
		names = append(names, h.Record.Name+" ("+string(h.Record.Status)+")")
	}
	at := map[string]int{}
	for i, h := range hits {
		at[h.Record.Name] = i
	}
	a, ok1 := at["spec-rate-limits-2"]
	s, ok2 := at["spec-rate-limits"]
	if !ok1 || !ok2 || a > s {
		t.Fatalf("ranked %v; want the active spec-rate-limits-2 before the superseded spec-rate-limits", names)
	}
	if _, ok := at["plan-queue-retries"]; !ok {
		t.Errorf("ranked %v; the other question's record is missing", names)
	}
	hits, err = e.s.Search(ctx, "rate limits token bucket", Filter{Status: StatusSuperseded}, 10)
	if err != nil || len(hits) != 1 || hits[0].Record.Name != "spec-rate-limits" {
		t.Errorf("superseded only: %+v %v", hits, err)
	}
}
