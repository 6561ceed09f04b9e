import { createRouter, createWebHashHistory } from 'vue-router'
import CorpusView from './views/CorpusView.vue'
import GraphView from './views/GraphView.vue'
import QuestionsView from './views/QuestionsView.vue'
import WorkspaceView from './views/WorkspaceView.vue'
import WorkspacesView from './views/WorkspacesView.vue'

// Hash history works both from file:// in Electron and from the loopback server.
export const createAppRouter = () =>
  createRouter({
    history: createWebHashHistory(),
    routes: [
      { path: '/', component: WorkspacesView },
      { path: '/workspaces/:id', component: WorkspaceView },
      { path: '/workspaces/:id/corpus', component: CorpusView },
      { path: '/workspaces/:id/questions', component: QuestionsView },
      { path: '/workspaces/:id/graph', component: GraphView },
      { path: '/:pathMatch(.*)*', redirect: '/' },
    ],
  })
