import type { Lang } from '../reference/reference-data.ts';

// The help desk boundary (ADR 0021). Spec §1: support tickets are "run by an external help-desk
// provider". Every page, API call and email of support goes through this type; the built-in desk
// (built-in-help-desk.ts) keeps tickets in our database and gives staff /support-desk/. An
// external provider (Zammad's or FreeScout's REST API) is another implementation of the same
// type: it creates the ticket there, keeps its id in `external_id`, and answers replies through
// the provider's webhook calling `answer`.

export type TicketStatus = 'open' | 'answered' | 'closed';
export const TICKET_STATUSES: TicketStatus[] = ['open', 'answered', 'closed'];

export type TicketSummary = {
  id: number;
  /** Per user, from 1 (/dashboard/support/topics/{number}/); null for a guest's ticket. */
  number: number | null;
  name: string;
  status: TicketStatus;
  created_at: Date;
  updated_at: Date;
};

export type TicketMessage = {
  id: number;
  author: 'requester' | 'support';
  body: string;
  created_at: Date;
};

export type Ticket = TicketSummary & {
  user_id: number | null;
  email: string;
  requester_name: string;
  language: Lang;
  source: 'dashboard' | 'contact_form' | 'api';
  messages: TicketMessage[];
};

export type Requester =
  | { kind: 'user'; userId: number; email: string; name: string; lang: Lang }
  | { kind: 'guest'; email: string; name: string; lang: Lang };

export type NewTicket = { requester: Requester; name: string; message: string; source: Ticket['source'] };

export type TicketPage = { data: TicketSummary[]; next: number | null };

export type HelpDesk = {
  /** Opens a ticket with its first message. */
  open(ticket: NewTicket): Promise<Ticket>;
  /** A user's tickets, most recently updated first (50 a page; `after` is the last id seen). */
  listOfUser(userId: number, page?: { after?: number; count?: number }): Promise<TicketPage>;
  /** One ticket of a user, by its number or id; null when it is not theirs. */
  ofUser(userId: number, ref: { number: number } | { id: number }): Promise<Ticket | null>;
  /** The requester writes again: the ticket is open (again). */
  reply(userId: number, id: number, message: string): Promise<Ticket>;
  /** The requester closes or reopens a ticket. */
  setStatus(userId: number, id: number, status: 'open' | 'closed'): Promise<Ticket>;
  /** Staff: tickets of a status (or all), most recently updated first. */
  desk(filter: { status?: TicketStatus; after?: number }): Promise<TicketPage>;
  /** Staff: one ticket. */
  get(id: number): Promise<Ticket | null>;
  /** Staff answers: the ticket is answered, and the requester is emailed (as their settings say). */
  answer(id: number, staffUserId: number, message: string): Promise<Ticket>;
  /** Staff closes or reopens a ticket. */
  setDeskStatus(id: number, status: TicketStatus): Promise<Ticket>;
};

/** Which help desk runs the tickets (server/env.ts reads it from HELPDESK and ZAMMAD_*). */
export type HelpDeskSettings =
  | { kind: 'built-in' }
  | {
      kind: 'zammad';
      /** The Zammad instance, e.g. https://help.example.com (its REST API is under /api/v1). */
      url: string;
      /** An access token of an agent with `ticket.agent` and `admin.user` (Authorization: Token token=…). */
      token: string;
      /** The group new tickets go to. */
      group: string;
      /** The longest a call may take before the user is told the help desk is unavailable. */
      timeoutMs: number;
      /** The HMAC-SHA1 token of Zammad's webhook (X-Hub-Signature); without it the webhook route is off. */
      webhookSecret?: string;
    };
