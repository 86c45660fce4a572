package inbox_test

import (
	"testing"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/inboxtest"
)

func TestMemTransportConformance(t *testing.T) {
	inboxtest.Run(t, func(testing.TB) inbox.Transport { return inbox.NewMemTransport() })
}
