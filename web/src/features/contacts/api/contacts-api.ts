import { CONTACTS_LIST_LIMIT } from '@shared/constants';
import * as contacts from '@shared/contract/endpoints/contacts';
import * as timeline from '@shared/contract/endpoints/timeline';
import {
  infiniteQueryOptions,
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { BodyOf } from '@/lib/api-client';
import { contactKeys } from '@/lib/contact-keys';
import { api } from '@/lib/services';

export type NewContact = BodyOf<typeof contacts.createContact>;

const contactsKey = contactKeys.all;

export const fetchContacts = (search: string) =>
  api.call(contacts.listContacts, { query: { search, limit: CONTACTS_LIST_LIMIT } }).then((d) => d.contacts);

export const createContact = (contact: NewContact) => api.call(contacts.createContact, { body: contact }).then((d) => d.contact);

/** docs/product.md §5: the number is never sent when editing (the contract's body has no field for it). */
export const updateContact = ({ id, ...fields }: BodyOf<typeof contacts.updateContact> & { id: string }) =>
  api.call(contacts.updateContact, { params: { id }, body: fields }).then((d) => d.contact);

export const deleteContact = (id: string) => api.call(contacts.deleteContact, { params: { id } });

export function useContacts(search: string) {
  return useQuery({
    queryKey: [...contactsKey, search],
    queryFn: () => fetchContacts(search),
    // The table stays while the next search loads, so typing does not flash it away.
    placeholderData: keepPreviousData,
  });
}

function useContactMutation<A, R>(mutationFn: (arg: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactsKey }),
    retry: false,
  });
}

export const useCreateContact = () => useContactMutation(createContact);
export const useUpdateContact = () => useContactMutation(updateContact);
export const useDeleteContact = () => useContactMutation(deleteContact);

// The contact timeline (docs/product.md: Contact timeline): newest first, older pages by cursor.
export const fetchContactTimeline = (id: string, cursor: string | undefined) =>
  api.call(timeline.contactTimeline, { params: { id }, query: { cursor } });

export const contactTimelineQuery = (id: string) =>
  infiniteQueryOptions({
    queryKey: [...contactsKey, id, 'timeline'] as const,
    queryFn: ({ pageParam }: { pageParam: string | undefined }) => fetchContactTimeline(id, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page: { nextCursor: string | null }) => page.nextCursor ?? undefined,
  });

export const useContactTimeline = (id: string) => useInfiniteQuery(contactTimelineQuery(id));
