import type { Contact } from '@shared/contract/contacts';
import { Contact as ContactIcon, Pencil, Plus, Search, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/components/alert';
import { Button } from '@/components/button';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { ContactActions } from '@/components/contact-actions';
import { EmptyState } from '@/components/empty-state';
import { IconButton } from '@/components/icon-button';
import { PageHeader } from '@/components/page-header';
import { Skeleton } from '@/components/skeleton';
import { Surface } from '@/components/surface';
import { errorMessage } from '@/lib/api-client';
import { usePhoneFormat } from '@/lib/phone-display';
import { formatRelativeTime } from '@/lib/relative-time';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useContacts, useDeleteContact } from '../api/contacts-api';
import { ContactDialog } from './contact-dialog';

/** How long typing pauses before the search is sent. */
export const SEARCH_DEBOUNCE_MS = 300;

type Open = { contact?: Contact; open: boolean } | null;

const CELL = 'max-sm:block sm:px-4 sm:py-3';

/** docs/product.md §2 Contacts: search, the table, New Contact and Edit modals, delete with confirmation. */
export function ContactsPage() {
  useDocumentTitle('Contacts');
  const [typed, setTyped] = useState('');
  const search = useDebounced(typed.trim(), SEARCH_DEBOUNCE_MS);
  const contacts = useContacts(search);
  const remove = useDeleteContact();
  const formatPhone = usePhoneFormat();
  const [editing, setEditing] = useState<Open>(null);
  const [deleting, setDeleting] = useState<{ contact: Contact; open: boolean } | null>(null);
  const list = contacts.data ?? [];

  return (
    <>
      <PageHeader
        title="Contacts"
        description="The people your team calls and texts."
        actions={
          <Button onClick={() => setEditing({ open: true })}>
            <Plus aria-hidden="true" className="size-4" />
            New Contact
          </Button>
        }
      />
      <div className="relative mb-4 max-w-md">
        <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted" />
        <input
          type="search"
          aria-label="Search contacts"
          placeholder="Search by name, phone or email"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          className="min-h-10 w-full rounded-lg border border-border bg-surface py-2 pr-3 pl-9 text-sm text-fg placeholder:text-muted"
        />
      </div>
      {contacts.isError ? (
        <Alert tone="error">{errorMessage(contacts.error, 'Failed to load contacts')}</Alert>
      ) : (
        <Surface className="overflow-hidden">
          <table className="w-full text-left text-sm max-sm:block">
            <caption className="sr-only">{contacts.isPending ? 'Loading contacts...' : 'Contacts'}</caption>
            <thead className="border-b border-border bg-surface-muted text-xs font-semibold tracking-wide text-muted uppercase max-sm:sr-only">
              <tr>
                <th scope="col" className="px-4 py-3">
                  Name
                </th>
                <th scope="col" className="px-4 py-3">
                  Phone Number
                </th>
                <th scope="col" className="px-4 py-3">
                  Email
                </th>
                <th scope="col" className="px-4 py-3 text-right">
                  Calls
                </th>
                <th scope="col" className="px-4 py-3 text-right">
                  Conversations
                </th>
                <th scope="col" className="px-4 py-3">
                  Last Contact
                </th>
                <th scope="col" className="px-4 py-3 text-right">
                  Actions
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border max-sm:block">
              {contacts.isPending ? (
                [0, 1, 2].map((i) => (
                  <tr key={i} className="max-sm:block max-sm:px-4 max-sm:py-3">
                    <td colSpan={7} className="max-sm:block sm:px-4 sm:py-3">
                      <Skeleton className="h-5 w-full" />
                    </td>
                  </tr>
                ))
              ) : list.length === 0 ? (
                <tr className="max-sm:block">
                  <td colSpan={7} className="max-sm:block">
                    <EmptyState icon={ContactIcon} title={search ? 'No contacts match your search' : 'No contacts yet'}>
                      {search
                        ? 'Try a name, part of a number or an e-mail.'
                        : 'Contacts appear when someone texts or calls, or add one yourself.'}
                    </EmptyState>
                  </td>
                </tr>
              ) : (
                list.map((contact) => {
                  const label = contact.name || formatPhone(contact.phoneNumber);
                  return (
                    <tr key={contact.id} className="max-sm:flex max-sm:flex-col max-sm:gap-1 max-sm:px-4 max-sm:py-3">
                      <td className={`${CELL} font-semibold wrap-anywhere text-fg`}>{contact.name || 'Unknown'}</td>
                      <td className={`${CELL} whitespace-nowrap text-fg`}>{formatPhone(contact.phoneNumber)}</td>
                      <td className={`${CELL} wrap-anywhere text-muted`}>{contact.email}</td>
                      <td className={`${CELL} sm:text-right`}>
                        <span className="sm:sr-only">Calls: </span>
                        {contact.callCount}
                      </td>
                      <td className={`${CELL} sm:text-right`}>
                        <span className="sm:sr-only">Conversations: </span>
                        {contact.lastConversationId && contact.conversationCount > 0 ? (
                          <Link
                            to={`/conversations/${encodeURIComponent(contact.lastConversationId)}`}
                            aria-label={`Open the conversation with ${label} (${contact.conversationCount})`}
                            className="font-medium text-primary underline-offset-2 hover:underline"
                          >
                            {contact.conversationCount}
                          </Link>
                        ) : (
                          contact.conversationCount
                        )}
                      </td>
                      <td className={`${CELL} whitespace-nowrap text-muted`}>
                        <span className="sm:sr-only">Last contact: </span>
                        {formatRelativeTime(contact.lastContactAt)}
                      </td>
                      <td className={CELL}>
                        <div className="flex items-center justify-end gap-1 max-sm:justify-start">
                          <ContactActions phoneNumber={contact.phoneNumber} who={label} className="mr-1" />
                          <IconButton icon={Pencil} label={`Edit ${label}`} onClick={() => setEditing({ contact, open: true })} />
                          <IconButton
                            icon={Trash2}
                            tone="danger"
                            label={`Delete ${label}`}
                            onClick={() => {
                              remove.reset();
                              setDeleting({ contact, open: true });
                            }}
                          />
                        </div>
                      </td>
                    </tr>
                  );
                })
              )}
            </tbody>
          </table>
        </Surface>
      )}

      {editing && (
        <ContactDialog
          key={editing.contact?.id ?? 'new'}
          contact={editing.contact}
          open={editing.open}
          onOpenChange={(open) => setEditing((s) => (s ? { ...s, open } : null))}
        />
      )}
      {deleting && (
        <ConfirmDialog
          open={deleting.open}
          onOpenChange={(open) => setDeleting((s) => (s ? { ...s, open } : null))}
          title="Delete contact?"
          confirmLabel="Delete"
          pendingLabel="Deleting..."
          pending={remove.isPending}
          error={remove.isError ? errorMessage(remove.error, 'Failed to delete contact') : null}
          onConfirm={() => remove.mutate(deleting.contact.id, { onSuccess: () => setDeleting(null) })}
        >
          <p>
            Are you sure you want to delete {deleting.contact.name || formatPhone(deleting.contact.phoneNumber)}? Their
            conversations and calls stay, showing the number.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}

/** The value once it has stopped changing for `ms`. */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
