import { DEFAULT_COMPANY_NAME } from '@shared/constants';
import { renameCompany } from '@shared/contract/account';
import { useRenameCompany } from '../api/company-api';
import { NameForm } from './name-form';
import { ReadOnlyField } from './read-only-field';

/** Settings → Company: the owner renames the company; everyone else reads the name (docs/product.md: Account self-service). */
export function CompanyName({ name, canRename }: { name: string; canRename: boolean }) {
  if (!canRename) {
    return (
      <>
        <ReadOnlyField label="Company name" value={name || DEFAULT_COMPANY_NAME} />
        <p className="text-sm text-muted">Only the owner can change the company name.</p>
      </>
    );
  }
  return <RenameForm name={name} />;
}

function RenameForm({ name }: { name: string }) {
  const rename = useRenameCompany();
  return (
    <NameForm
      name={name}
      label="Company name"
      autoComplete="organization"
      hint="Your team and the people you invite see this name."
      schema={renameCompany.body}
      mutation={rename}
      saveLabel="Save company name"
      savedNotice="The company name was saved."
      failedMessage="Failed to save the company name"
    />
  );
}
