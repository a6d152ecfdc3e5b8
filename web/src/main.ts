// Placeholder until the web app arrives: proves the dev server reaches the API through its proxy.
const statusLine = document.getElementById('status');
fetch('/api/v1/health')
  .then((res) => res.json())
  .then((body: { success: boolean; data?: { status: string } }) => {
    if (statusLine) statusLine.textContent = body.success ? `API: ${body.data?.status}` : 'API: not ready';
  })
  .catch(() => {
    if (statusLine) statusLine.textContent = 'API: unreachable';
  });
