package app

import (
	"slices"
	"testing"

	"github.com/parleyhq/parley/config"
	"github.com/parleyhq/parley/escalation"
	"github.com/parleyhq/parley/gating"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/checkedconfig"
	"github.com/parleyhq/parley/internal/rootdir"
	"github.com/parleyhq/parley/registry"
	"github.com/parleyhq/parley/transcripts"
)

// rootdir writes out the names a root holds so that finding a root
// imports none of their packages: they must stay the owners' names.
func TestRootEntriesAreTheOwnersNames(t *testing.T) {
	t.Parallel()
	want := []string{inbox.InboxDir, registry.Dir, transcripts.Dir, config.FileName, "vault", "cache",
		gating.LogName, gating.LabelDir, escalation.LedgerName}
	if !slices.Equal(rootdir.Entries, want) {
		t.Errorf("rootdir.Entries = %q, want the owners' names %q", rootdir.Entries, want)
	}
	// The fast path's name for config.json, written out for the same reason.
	if checkedconfig.ConfigName != config.FileName {
		t.Errorf("checkedconfig.ConfigName = %q, want config.FileName %q", checkedconfig.ConfigName, config.FileName)
	}
}
