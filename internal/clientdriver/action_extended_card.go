package clientdriver

import (
	"context"
	"fmt"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/clientrun/contract"
)

func init() { register(contract.ActionExtendedCard, actionExtendedCard) }

// actionExtendedCard: stream a message (as stream does; what it raised is
// only warned about); then, when the
// card claims an extended card, fetch it and verify its signature as the
// public card's was verified: one that verifies replaces the public card
// (§3.1.11, SHOULD), one that does not is warned about and the public card
// kept; then stream the follow-up text as a new task with the same client.
func actionExtendedCard(ctx context.Context, d *Driver) error {
	if err := d.streamText(ctx, d.env.Text); err != nil {
		// What the first message raised (a client that refuses to stream
		// without the card's claim) is told, and the action goes on.
		d.warn("the first message: %v", err)
	}
	if err := d.extendedCard(ctx); err != nil {
		return err
	}
	return d.streamText(ctx, d.env.FollowUpText)
}

// extendedCard fetches and verifies the extended card.
func (d *Driver) extendedCard(ctx context.Context) error {
	if d.card == nil || d.card.Capabilities.ExtendedAgentCard == nil || !*d.card.Capabilities.ExtendedAgentCard {
		d.warn("the card claims no extended card (capabilities.extendedAgentCard): not fetched")
		return nil
	}
	var ext *a2a.AgentCard
	var raw []byte
	if err := d.call(ctx, func(c *client.Client) error {
		var e error
		ext, raw, e = c.GetExtendedAgentCardRaw(ctx, nil)
		return e
	}); err != nil {
		return err
	}
	d.report.Event("card", "card", "", "", "")
	err := d.verifyCard(ctx, raw, ext)
	if err == nil {
		return d.adopt(ext)
	}
	switch {
	case d.variants.has(variantRaisesOnUnverifiedExtendedCard):
		return &client.Error{Class: client.Protocol, Op: a2a.MethodGetExtendedAgentCard, Message: "the extended card was refused: " + err.Error()}
	case d.faults.has(faultCachesUnverifiedExtendedCard):
		// The bug class: the refused card stays the client's card, so
		// its capability checks run on it (the interface in use stays).
		d.warn("the extended card was refused (%v)", err)
		d.card = ext
		return nil
	case d.faults.has(faultFollowsUnverifiedExtendedEndpoint):
		d.warn("the extended card was refused (%v)", err)
		return d.adopt(ext)
	}
	d.warn("the extended card was refused, the public card kept: %v", err)
	return nil
}

// adopt makes card the client's card and chooses its interface again.
func (d *Driver) adopt(card *a2a.AgentCard) error {
	prev := d.card
	d.card = card
	if err := d.choose(); err != nil {
		d.card = prev
		return fmt.Errorf("the extended card: %w", err)
	}
	return nil
}
