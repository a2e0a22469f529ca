import type { SweepProfile } from '../kit/sweep-profile.js';

/**
 * How the conformance suite and `toolbench coverage` call every tool of toolbench's Zendesk MCP
 * server: in the conformance world (Larkspur Outfitters), on tickets that exist there. Ticket
 * 1003 is open, so comments and updates land; create_ticket names a customer as requester.
 */
export const sweep: SweepProfile = {
  scenario: 'mocks/zendesk/conformance',
  order: ['create_ticket'],
  args: {
    common: { ticket_id: 1003 },
    tools: {
      get_tickets: { page: 1, per_page: 5, sort_by: 'created_at', sort_order: 'desc' },
      create_ticket: { subject: 'Sweep ticket', description: 'Created by the conformance sweep.', requester_id: 20001, priority: 'normal', type: 'question', tags: ['sweep'] },
      create_ticket_comment: { ticket_id: 1003, comment: 'A note from the sweep.', public: false },
      update_ticket: { ticket_id: 1003, priority: 'high', tags: ['sweep'] },
    },
  },
};
