package main

import (
	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/spf13/cobra"
)

// newTranscriptsCmd is "parley transcripts list | show ID | verify ID".
func newTranscriptsCmd(a *factory) *cobra.Command {
	return cmdutil.Group(&cobra.Command{
		Use:   "transcripts",
		Short: "List, read and verify debate transcripts",
	}, newTranscriptsListCmd(a), newTranscriptsShowCmd(a), newTranscriptsVerifyCmd(a), newTranscriptsKeygenCmd(a))
}
