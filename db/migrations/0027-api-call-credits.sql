-- Data API calls that cost credits (docs/decisions/0020-api-keys-matching-reconciliation.md): a
-- match call spends them as an `api` row of the ledger, and a call that fails after its charge
-- gives them back with an `api_refund` row. The ledger stays append-only (migration 0021); the
-- enrichment reasons of migration 0025 stay.
alter table credit_ledger drop constraint credit_ledger_reason_check;
alter table credit_ledger add constraint credit_ledger_reason_check
  check (reason in ('pack', 'subscription', 'profile', 'export', 'api', 'api_refund', 'refund', 'chargeback', 'grant',
    'enrichment', 'enrichment_refund'));
