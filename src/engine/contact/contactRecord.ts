import type { ContactData, ContactRecord, ContactStep } from '../state/index.js';

/** The record with its data patched (and its step moved on, when given). */
export function withData(record: ContactRecord, patch: Partial<ContactData>, step?: ContactStep): ContactRecord {
  return { ...record, ...(step ? { step } : {}), data: { ...record.data, ...patch } };
}
