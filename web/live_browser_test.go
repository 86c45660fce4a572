package web

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/parleyhq/parley/debate"
)

// A running debate's page whose live stream the server refuses (too many
// live pages open) says that it no longer updates, instead of claiming
// "Live: … the page updates as turns arrive" while nothing comes.
func TestBrowserRefusedLiveStreamSaysSo(t *testing.T) {
	ctx := browser(t)
	f := newFixture(t)
	srv, err := New(Config{Debates: f.debates, Vault: f.vault, Consensus: f.cs, LivePoll: 20 * time.Millisecond, MaxLive: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	release := make(chan struct{})
	run := f.start(debate.LayerSpec, "Ship on Friday", "Ship it now", waitingSides(release)...)
	defer func() { close(release); run.wait(t) }()
	waitEvents(t, f, run.ID, 3)
	ts := httptest.NewServer(srv)
	defer ts.Close()
	ts.URL = strings.Replace(ts.URL, "127.0.0.1", "localhost", 1)
	res, err := http.Get(ts.URL + "/debates/" + run.ID + "/live") // takes the one slot
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("the first stream: %v %v", res, err)
	}
	defer res.Body.Close()
	<-readEvents(res.Body)
	step(t, ctx, "open the running debate", chromedp.Navigate(ts.URL+"/debates/"+run.ID), chromedp.WaitVisible(chromedp.CSS("#live-status")))
	value(t, ctx, "wait for the refused stream", chromedp.Poll[bool](`document.getElementById("live-status").classList.contains("ended")`, chromedp.WithPollingTimeout(20*time.Second)))
	text := value(t, ctx, "status", chromedp.TextContent(chromedp.CSS("#live-status")))
	has(t, "the live status", text, "Live updates stopped", "Reload the page")
}
