import { lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { AuthLayout } from './layouts/auth-layout';
import { PublicOnly, RequireSession } from './layouts/require-session';
import { NotFoundPage } from './not-found-page';

// Each page loads its code when first visited, so /login's first visit carries only what it needs.
const page = <K extends string>(load: () => Promise<Record<K, React.ComponentType>>, name: K) =>
  lazy(() => load().then((m) => ({ default: m[name] })));

// The signed-in shell too: its socket, caches and notices are no part of a public page's first visit.
const AppShell = page(() => import('./layouts/app-shell'), 'AppShell');
const LoginPage = page(() => import('../features/auth/components/login-page'), 'LoginPage');
const RegisterPage = page(() => import('../features/auth/components/register-page'), 'RegisterPage');
const VerifyEmailPage = page(() => import('../features/auth/components/verify-email-page'), 'VerifyEmailPage');
const ResendVerificationPage = page(
  () => import('../features/auth/components/resend-verification-page'),
  'ResendVerificationPage',
);
const ForgotPasswordPage = page(() => import('../features/auth/components/forgot-password-page'), 'ForgotPasswordPage');
const ResetPasswordPage = page(() => import('../features/auth/components/reset-password-page'), 'ResetPasswordPage');
const AcceptInvitePage = page(() => import('../features/auth/components/accept-invite-page'), 'AcceptInvitePage');
const DashboardPage = page(() => import('../features/dashboard/components/dashboard-page'), 'DashboardPage');
const SettingsLayout = page(() => import('../features/settings/components/settings-layout'), 'SettingsLayout');
const ProfilePage = page(() => import('../features/settings/components/profile-page'), 'ProfilePage');
const CompanyPage = page(() => import('../features/settings/components/company-page'), 'CompanyPage');
const CallingPage = page(() => import('../features/settings/components/calling-page'), 'CallingPage');
const ProvidersPage = page(() => import('../features/providers/components/providers-page'), 'ProvidersPage');
const ChannelsPage = page(() => import('../features/channels/components/channels-page'), 'ChannelsPage');
const InboxesPage = page(() => import('../features/inboxes/components/inboxes-page'), 'InboxesPage');
const TeamPage = page(() => import('../features/team/components/team-page'), 'TeamPage');
const ConversationsPage = page(() => import('../features/conversations/components/conversations-page'), 'ConversationsPage');
const ContactsPage = page(() => import('../features/contacts/components/contacts-page'), 'ContactsPage');
const CallHistoryPage = page(() => import('../features/calls/components/call-history-page'), 'CallHistoryPage');
const AdminPage = page(() => import('../features/admin/components/admin-page'), 'AdminPage');

/** docs/product.md §2 route table. */
export function AppRoutes() {
  return (
    <Routes>
      <Route index element={<Navigate to="/dashboard" replace />} />
      <Route element={<AuthLayout />}>
        <Route element={<PublicOnly />}>
          <Route path="login" element={<LoginPage />} />
          <Route path="register" element={<RegisterPage />} />
        </Route>
        <Route path="verify-email" element={<VerifyEmailPage />} />
        <Route path="resend-verification" element={<ResendVerificationPage />} />
        <Route path="accept-invite" element={<AcceptInvitePage />} />
        <Route path="forgot-password" element={<ForgotPasswordPage />} />
        <Route path="reset-password" element={<ResetPasswordPage />} />
      </Route>
      <Route element={<RequireSession />}>
        <Route element={<AppShell />}>
          <Route path="dashboard" element={<DashboardPage />} />
          <Route path="contacts" element={<ContactsPage />} />
          <Route path="calls" element={<CallHistoryPage />} />
          <Route path="conversations/:conversationId?" element={<ConversationsPage />} />
          <Route path="admin" element={<AdminPage />} />
          <Route path="settings" element={<SettingsLayout />}>
            <Route index element={<Navigate to="providers" replace />} />
            <Route path="providers" element={<ProvidersPage />} />
            <Route path="channels" element={<ChannelsPage />} />
            <Route path="inboxes" element={<InboxesPage />} />
            <Route path="company" element={<CompanyPage />} />
            <Route path="calling" element={<CallingPage />} />
            <Route path="team" element={<TeamPage />} />
            <Route path="profile" element={<ProfilePage />} />
          </Route>
        </Route>
      </Route>
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
