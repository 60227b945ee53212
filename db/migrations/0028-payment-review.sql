-- A payment that does not match its order (docs/decisions/0019-billing.md): the provider's
-- transaction named the order but paid another total, currency or price than the order's. The
-- order is not paid (it reads as failed, with this reason) and stays flagged here until a person
-- has settled it with the provider (refunded the transaction, or paid the order by hand).
alter table orders
  add column review_reason text
    check (review_reason is null or review_reason in ('amount_mismatch', 'currency_mismatch', 'price_mismatch')),
  -- The provider's transaction that did not match (provider_ref stays for the one that paid).
  add column review_ref text;
create index orders_to_review on orders (updated_at) where review_reason is not null;
