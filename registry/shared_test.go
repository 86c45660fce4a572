package registry_test

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/registry"
)

// ClaimName and AdoptInbox are the steps of Register that the file and
// JetStream registries share (registrytest runs both through them); these
// tests cover what the conformance suite cannot provoke.

func TestClaimNameChecksTheNameAndWalksTheMemorableCandidates(t *testing.T) {
	t.Parallel()
	taken := map[string]bool{"SwiftRaven": true, "SwiftRaven2": true}
	var tried []string
	claim := func(_ context.Context, reg registry.Registration) (*registry.Registered, []byte, error) {
		tried = append(tried, reg.Name)
		if taken[reg.Name] {
			return nil, nil, registry.ErrNameTaken
		}
		return &registry.Registered{Registration: reg}, []byte("prev"), nil
	}
	next := func() string { return "SwiftRaven" }
	tests := []struct {
		name      string
		reg       string
		want      string
		wantErr   error
		wantTried []string
	}{
		{"a given name is claimed as it is", "Bob", "Bob", nil, []string{"Bob"}},
		{"a given name that is taken is not replaced", "SwiftRaven", "", registry.ErrNameTaken, []string{"SwiftRaven"}},
		{"an invalid name never reaches the backend", "../etc", "", inbox.ErrInvalidName, nil},
		{"no name: the first free candidate", "", "SwiftRaven3", nil, []string{"SwiftRaven", "SwiftRaven2", "SwiftRaven3"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tried = nil
			res, prev, err := registry.ClaimName(context.Background(), registry.Registration{Name: tc.reg}, next, claim)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
			if tc.wantErr == nil && (res.Name != tc.want || string(prev) != "prev") {
				t.Fatalf("claimed %q (prev %q), want %q (prev from the claim)", res.Name, prev, tc.want)
			}
			if !slices.Equal(tried, tc.wantTried) {
				t.Fatalf("tried %v, want %v", tried, tc.wantTried)
			}
		})
	}
}

type fakeMail struct {
	moved int
	err   error
}

func (m fakeMail) Adopt(context.Context, string, string) (int, error) { return m.moved, m.err }

func TestAdoptInboxGivesTheNameBackWhenTheInboxIsHeld(t *testing.T) {
	t.Parallel()
	log := slog.New(slog.DiscardHandler)
	tests := []struct {
		name        string
		mail        registry.Mailboxes
		giveBackErr error
		wantErr     error
		wantMoved   int
		wantGiven   bool
	}{
		{"no mailboxes: nothing to adopt", nil, nil, nil, 0, false},
		{"adopted: the moved-aside count is reported", fakeMail{moved: 2}, nil, nil, 2, false},
		{"the inbox is held: the name is given back", fakeMail{err: inbox.ErrBusy}, nil, inbox.ErrBusy, 0, true},
		{"a failed give-back does not hide why", fakeMail{err: inbox.ErrBusy}, errors.New("disk gone"), inbox.ErrBusy, 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel() // the caller gave up: the give-back must still run
			given := false
			giveBack := func(ctx context.Context, name, sessionID string, prev []byte) error {
				given = true
				if ctx.Err() != nil || name != "Bob" || sessionID != "s1" || string(prev) != "old" {
					t.Errorf("giveBack(ctx err %v, %q, %q, %q); want a live context, Bob, s1, old", ctx.Err(), name, sessionID, prev)
				}
				return tc.giveBackErr
			}
			res := &registry.Registered{Registration: registry.Registration{Name: "Bob", SessionID: "s1"}}
			got, err := registry.AdoptInbox(ctx, tc.mail, res, []byte("old"), giveBack, log)
			if !errors.Is(err, tc.wantErr) || given != tc.wantGiven {
				t.Fatalf("err = %v, given back %v; want %v, %v", err, given, tc.wantErr, tc.wantGiven)
			}
			if tc.wantErr == nil && (got != res || got.MovedAside != tc.wantMoved) {
				t.Fatalf("got %+v, want the claim with %d moved aside", got, tc.wantMoved)
			}
		})
	}
}

func TestListLiveKeepsTheAliveInOrder(t *testing.T) {
	t.Parallel()
	pruned := false
	prune := func(context.Context) ([]string, error) { pruned = true; return nil, nil }
	all := func(context.Context) ([]registry.Entry, error) {
		if !pruned {
			t.Error("listed before pruning")
		}
		var es []registry.Entry
		for _, n := range []string{"A", "B", "C", "D"} {
			es = append(es, registry.Entry{Registration: registry.Registration{Name: n}, Alive: n != "B"})
		}
		return es, nil
	}
	discard := slog.New(slog.DiscardHandler)
	names := func(es []registry.Entry) []string {
		var ns []string
		for _, e := range es {
			ns = append(ns, e.Name)
		}
		return ns
	}
	live, err := registry.ListLive(context.Background(), prune, all, discard)
	if err != nil || !slices.Equal(names(live), []string{"A", "C", "D"}) {
		t.Fatalf("ListLive = %v, %v; want [A C D]", names(live), err)
	}
	boom := errors.New("boom")
	if _, err := registry.ListLive(context.Background(), func(context.Context) ([]string, error) { return nil, boom }, all, discard); !errors.Is(err, boom) {
		t.Fatalf("a failed prune = %v, want it returned", err)
	}
	// Dead registrations that could not be removed are not live: the
	// listing goes on.
	stuck := func(context.Context) ([]string, error) { return nil, &registry.PruneError{Errs: []error{boom}} }
	if live, err := registry.ListLive(context.Background(), stuck, all, discard); err != nil || !slices.Equal(names(live), []string{"A", "C", "D"}) {
		t.Fatalf("a prune that left some = %v, %v; want [A C D] and no error", names(live), err)
	}
}

func TestBeatRetriesFailuresAndStopsWhenTheNameIsLost(t *testing.T) {
	t.Parallel()
	boom := errors.New("disk full")
	results := []error{boom, nil, boom, registry.ErrNotOwner, nil}
	calls := 0
	err := registry.Beat(context.Background(), time.Millisecond, func(context.Context) error {
		calls++
		return results[calls-1]
	}, slog.New(slog.DiscardHandler))
	if !errors.Is(err, registry.ErrNotOwner) || calls != 4 {
		t.Fatalf("Beat = %v after %d beats, want ErrNotOwner after 4 (failures retried)", err, calls)
	}

	ctx, cancel := context.WithCancel(context.Background())
	beats := 0
	err = registry.Beat(ctx, time.Millisecond, func(context.Context) error {
		if beats++; beats == 3 {
			cancel()
			return context.Canceled
		}
		return nil
	}, slog.New(slog.DiscardHandler))
	if err != nil || beats != 3 {
		t.Fatalf("Beat = %v after %d beats, want nil once its context ends", err, beats)
	}
}
