import { data, redirect } from 'react-router';
import { localePath } from '../../../core/i18n/i18n.ts';
import { getNotification, markRead, notificationPath } from '../../../core/notifications/notifications.ts';
import { langOf } from '../../presenters/user-data.server.ts';
import { requireUser } from '../../require-user.server.ts';
import { servicesContext } from '../../services.ts';
import type { Route } from './+types/notification';

// GET /dashboard/notifications/{id}/: opens a notification — marks it read and goes on to the page
// it announces (core/notifications notificationPath), in the reader's language. Another user's
// notification, or none, is a 404.

export async function loader({ params, context }: Route.LoaderArgs) {
  const auth = requireUser(context);
  const { db } = context.get(servicesContext);
  const id = /^\d{1,15}$/.test(params.id) ? Number(params.id) : null;
  const notification = id === null ? null : await getNotification(db, auth.user.id, id);
  if (!notification) throw data({ message: 'notification not found' }, { status: 404 });
  if (notification.read_at === null) await markRead(db, auth.user.id, [notification.id]);
  return redirect(localePath(langOf(params), notificationPath(notification.kind, notification.data)), {
    status: 303,
    headers: { 'cache-control': 'private, no-store' },
  });
}
