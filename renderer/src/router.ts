import { createRouter, createWebHashHistory } from 'vue-router'
import WorkspaceView from './views/WorkspaceView.vue'
import WorkspacesView from './views/WorkspacesView.vue'

// Hash history works both from file:// in Electron and from the loopback server.
export const createAppRouter = () =>
  createRouter({
    history: createWebHashHistory(),
    routes: [
      { path: '/', component: WorkspacesView },
      { path: '/workspaces/:id', component: WorkspaceView },
      { path: '/:pathMatch(.*)*', redirect: '/' },
    ],
  })
