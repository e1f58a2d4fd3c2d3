import { z } from 'zod';
import { ADMIN_ROLES, SETTINGS_ROLES, safeString } from '@mos/core';
import { askAssistant, askInput, askView } from '@mos/app';
import {
  contactDetailsView,
  contactDetailView,
  contactListView,
  getContactDetails,
  listContactsInput,
  searchWorkspaceContacts,
  updateContactInput,
  updateWorkspaceContact,
} from '@mos/app';
import { contactIdInput, eraseContactData, exportContactData, gdprEraseView, gdprExportView } from '@mos/app';
import { scopeOf } from '@mos/app';
import { operatorProcedure, roleProcedure, router } from '../trpc';

/**
 * Contacts: any operator reads; owner/admin/developer edit; only owner/admin export or
 * erase personal data (GDPR).
 */
export const contactsRouter = router({
  list: operatorProcedure
    .input(listContactsInput)
    .output(contactListView)
    .query(({ ctx, input }) => searchWorkspaceContacts(ctx.deps, scopeOf(ctx.actor), input)),
  get: operatorProcedure
    .input(z.object({ id: safeString().min(1).max(64) }))
    .output(contactDetailsView)
    .query(({ ctx, input }) => getContactDetails(ctx.deps, scopeOf(ctx.actor), input.id)),
  update: roleProcedure(SETTINGS_ROLES)
    .input(updateContactInput)
    .output(contactDetailView)
    .mutation(({ ctx, input }) => updateWorkspaceContact(ctx.deps, scopeOf(ctx.actor), input)),
  gdprExport: roleProcedure(ADMIN_ROLES)
    .input(contactIdInput)
    .output(gdprExportView)
    .query(({ ctx, input }) => exportContactData(ctx.deps, scopeOf(ctx.actor), input.id)),
  gdprErase: roleProcedure(ADMIN_ROLES)
    .input(contactIdInput)
    .output(gdprEraseView)
    .mutation(({ ctx, input }) => eraseContactData(ctx.deps, scopeOf(ctx.actor), input.id)),
});

/** The operator assistant: it quotes customers' messages, so the roles that see personal data (not viewers). */
export const assistantRouter = router({
  ask: roleProcedure(SETTINGS_ROLES)
    .input(askInput)
    .output(askView)
    .mutation(({ ctx, input }) => askAssistant(ctx.deps, scopeOf(ctx.actor), input)),
});
