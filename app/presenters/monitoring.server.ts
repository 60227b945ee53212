import { redirect } from 'react-router';
import { importFieldLabel } from '../../core/imports/fields.ts';
import {
  deleteExistingTracking,
  type ExistingTracking,
  setExistingTrackingStatus,
} from '../../core/monitoring/existing-trackings.ts';
import { deleteNewTracking, setNewTrackingStatus } from '../../core/monitoring/new-trackings.ts';
import { isTrackingStatus } from '../../core/monitoring/tracking-status.ts';
import type { Db } from '../../db/client.ts';
import { requireUser } from '../require-user.server.ts';
import { servicesContext } from '../services.ts';
import type { Presenter } from './present.server.ts';
import { formInt, pageError } from './user-data.server.ts';

// What the monitoring pages share: a tracking's status and reports as cells, a report's changes
// as lines (app/presenters/change-lines.server.ts), and the action of the tracking pages (pause, resume, stop).

type ContextReader = { get: <T>(context: import('react-router').RouterContext<T>) => T };

export function statusText(p: Presenter, status: 'active' | 'paused'): string {
  return p.t(`monitoring.statuses.${status}`);
}

/** "3 reports" linking to them, or "None yet". */
export function reportsCell(p: Presenter, count: number, href: string) {
  return count > 0 ? { text: p.t('monitoring.reports', { count }), href } : { text: p.t('monitoring.noReports') };
}

/** What a tracking reports — "Everything", the parts it chose, or "5 parts" — linking to the page that changes it. */
export function sectionsCell(p: Presenter, tracking: Pick<ExistingTracking, 'id' | 'sections'>) {
  const href = `${p.path('/companies/monitoring/updates/sections/')}?tracking=${tracking.id}`;
  if (tracking.sections === null) return { text: p.t('monitoring.sections.all'), href };
  const names = tracking.sections.map((s) =>
    s === 'company' ? p.t('monitoring.sections.companyShort') : importFieldLabel(`records.${s}`, p.lang),
  );
  return {
    text: names.length <= 2 ? names.join(', ') : p.t('monitoring.sections.some', { count: names.length }),
    href,
  };
}

/** The action of a tracking page: change a tracking's status, or stop it; the caller's own only. */
export async function trackingAction(request: Request, context: ContextReader, kind: 'existing' | 'new') {
  const auth = requireUser(context);
  const { db } = context.get(servicesContext);
  const url = new URL(request.url);
  const form = await request.formData();
  const intent = form.get('intent');
  const id = formInt(form, 'id');
  const setStatus: (db: Db, userId: number, id: number, status: 'active' | 'paused') => Promise<unknown> =
    kind === 'existing' ? setExistingTrackingStatus : setNewTrackingStatus;
  const remove = kind === 'existing' ? deleteExistingTracking : deleteNewTracking;
  const status = form.get('status');
  if (intent === 'status' && id !== null && isTrackingStatus(status)) {
    await setStatus(db, auth.user.id, id, status).catch(pageError);
    return redirect(`${url.pathname}?done=status`);
  }
  if (intent === 'delete' && id !== null) {
    await remove(db, auth.user.id, id).catch(pageError);
    return redirect(`${url.pathname}?done=deleted`);
  }
  throw new Response('Unknown action', { status: 400 });
}
